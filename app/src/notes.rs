//! What the page says about the data beside the chart: where the kernels outside the plot
//! went (the engine's `chart::places` note), and the load's warnings, each a short sentence
//! with its detail (what the files have, which counters are missing, the command that
//! collects them in a copyable box) behind a "Details" disclosure.

use crate::state::AppState;
use crate::reactive::{flag, handler, text};
use leptos::prelude::*;
use roofline_engine::notice::Notice;

/// "27 kernels, 34% of the run time, have no FLOPs: shown in the bandwidth strip …".
#[component]
pub fn KernelNote(state: AppState) -> impl IntoView {
    let note = state.kernel_note;
    view! {
        <p class="kernel-note" role="status" hidden=flag(move || note.with(Option::is_none))>
            {text(move || note.get().unwrap_or_default())}
        </p>
    }
}

/// Copies `text` to the clipboard and says whether it worked in `done`.
pub fn copy_text(text: String, done: RwSignal<String>) {
    let Some(window) = web_sys::window() else { return };
    let promise = window.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done.set(if ok { "Copied".into() } else { "Copy failed: select the text instead".into() });
    });
}

/// One warning: its sentence, then its detail when it has any.
fn warning(n: Notice) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let detail = n.has_detail().then(|| {
        let commands = n.commands.clone();
        view! {
            <details class="warning-detail">
                <summary>"Details"</summary>
                {n.files.clone().map(|f| view! { <p class="detail-row"><span class="detail-key">"Files: "</span>{f}</p> })}
                {(!n.found.is_empty()).then(|| view! { <p class="detail-row"><span class="detail-key">"Found: "</span>{n.found.join(", ")}</p> })}
                {(!n.missing.is_empty()).then(|| view! {
                    <div class="detail-row">
                        <span class="detail-key">"Missing: "</span>
                        <ul class="metric-list">{n.missing.iter().map(|m| view! { <li><code>{m.clone()}</code></li> }).collect_view()}</ul>
                    </div>
                })}
                {commands.into_iter().map(|c| {
                    let copy = c.clone();
                    view! {
                        <div class="command">
                            <pre><code>{c}</code></pre>
                            <button type="button" aria-label="Copy the command" on:click=handler(move |_: web_sys::MouseEvent| copy_text(copy.clone(), copied))>"Copy"</button>
                        </div>
                    }
                }).collect_view()}
                <p class="copied" aria-live="polite">{text(move || copied.get())}</p>
            </details>
        }
    });
    view! {
        <li>
            <p class="warning-sentence">{n.sentence}</p>
            {detail}
        </li>
    }
}

/// The load's warnings, and what the address could not hold.
#[component]
pub fn Warnings(state: AppState) -> impl IntoView {
    view! {
        <div class="warnings" role="status" aria-label="Warnings about the loaded files" hidden=flag(move || state.warnings.with(Vec::is_empty))>
            <ul>{move || state.warnings.get().into_iter().map(warning).collect_view()}</ul>
        </div>
        <p class="notice" role="status" hidden=flag(move || state.link_notice.with(Option::is_none))>
            {text(move || state.link_notice.get().map(|n| roofline_engine::notice::capitalise(&n)).unwrap_or_default())}
        </p>
    }
}
