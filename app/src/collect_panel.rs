//! "How to collect": the profiler command lines for the current chart mode, with copy buttons.

use crate::state::AppState;
use leptos::prelude::*;
use crate::reactive::{handler, text};
use roofline_engine::collect;

fn copy_to_clipboard(text: String, done: RwSignal<Option<String>>) {
    let Some(window) = web_sys::window() else { return };
    let promise = window.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done.set(Some(if ok { "Copied".into() } else { "Copy failed: select the text instead".into() }));
    });
}

#[component]
pub fn CollectPanel(state: AppState) -> impl IntoView {
    let copied: RwSignal<Option<String>> = RwSignal::new(None);
    let recipes = move || {
        collect::recipes(state.mode.get())
            .into_iter()
            .map(|r| {
                let text = r.commands.join("\n");
                let commands = r.commands.iter().map(|c| view! { <code>{c.clone()}</code> }).collect_view();
                view! {
                    <div class="recipe">
                        <h3>{r.tool}</h3>
                        <pre>{commands}</pre>
                        <p class="hint">{r.note}</p>
                        <button type="button" aria-label=format!("Copy the {} command", r.tool) on:click=handler(move |_: web_sys::MouseEvent| copy_to_clipboard(text.clone(), copied))>"Copy"</button>
                    </div>
                }
            })
            .collect_view()
    };
    // The recipes are built when the panel first opens, not in the start's long task
    // (docs/PERFORMANCE.md), then kept: on the summary's click (a mouse's, Enter's or Space's),
    // before the panel opens, so no frame shows it empty; on `toggle` where it opened another
    // way (a find in the page).
    let details_ref = NodeRef::<leptos::html::Details>::new();
    let mount_in = crate::popover::mount_once(move || {
        view! {
            {recipes}
            <p class="copied" aria-live="polite">{text(move || copied.get().unwrap_or_default())}</p>
        }
    });
    let build = move || {
        if let Some(details) = details_ref.get_untracked() {
            mount_in(details.into());
        }
    };
    let on_click = build.clone();
    view! {
        <details class="panel collect-panel" node_ref=details_ref on:toggle=handler(move |_: web_sys::Event| build())>
            <summary on:click=handler(move |_: web_sys::MouseEvent| on_click())>{text(move || format!("How to collect the data for the {} chart", state.mode.get().id()))}</summary>
        </details>
    }
}
