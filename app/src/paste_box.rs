//! Paste profiler text instead of picking a file (handy for a CSV copied from a terminal or a
//! chat). The text goes through the same importers as a file named "pasted text".

use crate::state::AppState;
use leptos::prelude::*;
use crate::reactive::handler;
use roofline_engine::SourceFile;

#[component]
pub fn PasteBox(state: AppState) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let load = move || {
        let t = text.get_untracked();
        if !t.trim().is_empty() {
            state.load(vec![SourceFile { name: "pasted text".into(), bytes: t.into_bytes() }]);
        }
    };
    view! {
        <details class="paste-box">
            <summary>"Paste text"</summary>
            <textarea
                id="paste-text"
                rows="6"
                aria-label="Profiler output to analyse"
                placeholder="Paste the output of ncu (console or --csv), nvprof --csv, rocprof, Advisor, or a tidy CSV"
                prop:value=crate::reactive::text(move || text.get())
                on:input=handler(move |ev: web_sys::Event| text.set(event_target_value(&ev)))
            ></textarea>
            <button type="button" on:click=handler(move |_: web_sys::MouseEvent| load())>"Analyse pasted text"</button>
        </details>
    }
}
