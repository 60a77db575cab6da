//! The view in the page address (`#v1.…`, see `roofline_engine::share`): written with
//! `history.replaceState` so it never scrolls or adds history entries, read once at start.

use roofline_engine::share::{self, DecodeError, View};

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The view in the current address, if there is one.
pub fn read() -> Option<Result<View, DecodeError>> {
    let hash = window()?.location().hash().ok()?;
    let fragment = hash.strip_prefix('#').unwrap_or(&hash);
    (!fragment.is_empty()).then(|| share::decode(fragment))
}

/// Replaces the address's fragment with `view`. A view too large for a link (or one the format
/// cannot hold) removes the fragment, so that the address never restores a stale view. Returns
/// what the user should be told: names shortened to fit, or the view too large for a link.
/// `short`: the view's kernels' short names where the page has them (`share::encode_with_short_names`).
pub fn write(view: &View, short: Option<&[String]>) -> Option<String> {
    let w = window()?;
    let encoded = match crate::start_link::known(view) {
        Some(fragment) => Ok(share::Link { fragment: fragment.to_string(), shortened_names: 0 }),
        None => share::encode_with_short_names(view, short),
    };
    let (url, notice) = match encoded {
        Ok(link) => {
            let notice = (link.shortened_names > 0)
                .then(|| format!("{} long kernel names were shortened to keep the link under {} characters.", link.shortened_names, share::MAX_LINK_CHARS));
            (format!("#{}", link.fragment), notice)
        }
        Err(e) => {
            let loc = w.location();
            let url = format!("{}{}", loc.pathname().unwrap_or_default(), loc.search().unwrap_or_default());
            (url, Some(format!("{e}. Use Export → view file (.roofline.json) to share it; it opens by drop.")))
        }
    };
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
    notice
}
