//! Paste profiler text instead of picking a file (handy for a CSV copied from a terminal or a
//! chat). The text goes through the same importers as a file named "pasted text".
//!
//! A Roofline Explorer link pasted here (`share::looks_like_link`) opens its view instead: a
//! link a mail program wrapped over lines opens whole (`share::decode` ignores whitespace),
//! and one cut on its way says how much of it is missing, in the page's alert.

use crate::state::AppState;
use leptos::prelude::*;
use crate::reactive::handler;
use roofline_engine::notice::capitalise;
use roofline_engine::share;
use roofline_engine::SourceFile;

/// Opens the view of a pasted link, or says why it cannot be opened and keeps the view.
fn open_link(state: AppState, text: &str) {
    match share::decode(text) {
        Ok(view) => {
            state.error.set(None);
            state.start_with(Some(Ok(view)));
        }
        Err(e) => state.error.set(Some(capitalise(&e.to_string()))),
    }
}

#[component]
pub fn PasteBox(state: AppState) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let load = move || {
        let t = text.get_untracked();
        if share::looks_like_link(&t) {
            open_link(state, &t);
        } else if !t.trim().is_empty() {
            state.load(vec![SourceFile { name: "pasted text".into(), bytes: t.into_bytes() }]);
        }
    };
    view! {
        <details class="paste-box">
            <summary>"Paste text"</summary>
            <textarea
                id="paste-text"
                rows="6"
                aria-label="Profiler output or a link to open"
                placeholder="Paste the output of ncu (console or --csv), nvprof --csv, rocprof, Advisor, a tidy CSV, or a Roofline Explorer link"
                prop:value=crate::reactive::text(move || text.get())
                on:input=handler(move |ev: web_sys::Event| text.set(event_target_value(&ev)))
            ></textarea>
            <button type="button" on:click=handler(move |_: web_sys::MouseEvent| load())>"Analyse pasted text"</button>
        </details>
    }
}
