//! The link of the page's start view (the built-in example, untouched), worked out when the
//! app was built instead of at every start.
//!
//! Why: the address holds the view from the start (address.rs writes the first view in the
//! task after the first chart), and encoding a view deflates it with the link dictionary
//! primed first (`roofline_engine::share`). On a page that has just started, that first
//! encode also compiles the deflate code: the write was one task of 10–22 ms on the
//! development machine (2026-11-29; 6.9–31.9 ms by its `roofline:address` measure), a task
//! without a layout, which Lighthouse's simulation charges 4× (docs/PERFORMANCE.md). With the
//! fragment known, that write is a comparison of two views and `history.replaceState`.
//!
//! The fragment is used only for a view equal to [`start_view`], built here from the example
//! and the link's defaults, so a view the page came to some other way is encoded as before.
//! The wasm test below checks that [`start_view`] is the view `AppState` starts with and that
//! the fragment is its encoding: a change to the example, to the app's defaults or to the link
//! format fails the test, which prints the new fragment.

use crate::state::shown;
use crate::examples;
use roofline_engine::share::{SharedKernel, View};

/// `share::encode` of [`start_view`]. No kernel name is shortened in it.
pub const START_FRAGMENT: &str = "v1.152.AWEAnv8ABHYxMDAHY2xhc3NpYwAABAIeYXhfa2VybmVsICh4IOKGkCDOsXgsIG4gPSA1ZTgpHWdlbW0gKG4gPSA1MDAwLCBjdUJMQVMgREdFTU0pAQEDAAwVBwc8PU1ST0_oYKDvLSfuaO7oYPBr1WvV";

/// The view a page starts with when its address holds none: the built-in example (V100, two
/// kernels), Classic, 4-byte words (the memory walls' default), no zoom, filter or selection.
pub fn start_view() -> View {
    View {
        machine_id: "v100".into(),
        word_bytes: 4,
        kernels: shown(examples::course_v100()).iter().map(SharedKernel::from).collect(),
        ..View::default()
    }
}

thread_local! {
    /// [`start_view`], built on the first address write.
    static START_VIEW: View = start_view();
}

/// [`START_FRAGMENT`] where `view` is [`start_view`], without encoding it. A view of another
/// kernel count differs at the length of its kernels, so a large view costs no comparison.
pub fn known(view: &View) -> Option<&'static str> {
    START_VIEW.with(|s| (s == view).then_some(START_FRAGMENT))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AppState;
    use roofline_engine::share;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn the_start_fragment_is_the_start_views_link() {
        // A page whose address holds no view starts with the example.
        let state = AppState::new();
        state.start_with(None);
        let view = state.view_untracked();
        assert_eq!(view, start_view(), "the app's start view");
        let link = share::encode(&view).expect("the example encodes");
        assert_eq!(link.fragment, START_FRAGMENT, "the start view's link changed: START_FRAGMENT = {:?}", link.fragment);
        assert_eq!(link.shortened_names, 0);
        // The link opens the same view.
        assert_eq!(share::decode(START_FRAGMENT).expect("decodes"), view);
        assert_eq!(known(&view), Some(START_FRAGMENT));
        // Another view is encoded: another mode, a kernel of another launch count.
        let mut other = view.clone();
        other.mode = "hierarchical".into();
        assert_eq!(known(&other), None);
        let mut other = view.clone();
        other.kernels[0].launches += 1;
        assert_eq!(known(&other), None);
    }
}
