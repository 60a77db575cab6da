//! Chart controls: mode tabs, level/ceiling/wall toggles, compute roof, word size, zoom reset,
//! theme, and "Copy link".

use crate::app::AppState;
use crate::theme;
use leptos::prelude::*;
use crate::reactive::{flag, handler, text};
use roofline_engine::chart::{Mode, WordSize};
use roofline_engine::model::{ComputeKind, Level};

pub fn mode_label(m: Mode) -> &'static str {
    match m {
        Mode::Classic => "Classic",
        Mode::Hierarchical => "Hierarchical",
        Mode::Instruction => "Instruction",
        Mode::Walls => "Memory walls",
        Mode::Transfers => "Transfers",
    }
}

fn copy_link(state: AppState, feedback: RwSignal<String>) {
    let Some(w) = web_sys::window() else { return };
    let href = w.location().href().unwrap_or_default();
    let promise = w.navigator().clipboard().write_text(&href);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        let mut msg = if ok { "Link copied".to_string() } else { "Copy failed: copy the address bar instead".to_string() };
        if let Some(n) = state.link_notice.get_untracked() {
            msg = format!("{msg}. {n}");
        }
        feedback.set(msg);
    });
}

#[component]
pub fn ViewControls(state: AppState) -> impl IntoView {
    let feedback = RwSignal::new(String::new());
    let tabs = Mode::ALL
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            view! {
                <button
                    type="button"
                    role="tab"
                    class="mode-tab"
                    aria-selected=text(move || (state.mode.get() == m).to_string())
                    title=format!("{} (key {})", mode_label(m), i + 1)
                    on:click=handler(move |_: web_sys::MouseEvent| { state.mode.set(m); state.zoom.set(None); })
                >{mode_label(m)}</button>
            }
        })
        .collect_view();
    let level_toggle = move |l: Level| {
        view! {
            <label class="toggle">
                <input
                    type="checkbox"
                    prop:checked=flag(move || !state.hidden_levels.get().contains(&l))
                    on:change=handler(move |_: web_sys::Event| state.hidden_levels.update(|h| if let Some(p) = h.iter().position(|x| *x == l) { h.remove(p); } else { h.push(l); }))
                />
                {l.label()}
            </label>
        }
    };
    let compute_options = [
        (None, "auto"),
        (Some(ComputeKind::Fp64), "FP64"),
        (Some(ComputeKind::Fp32), "FP32"),
        (Some(ComputeKind::Fp16), "FP16"),
        (Some(ComputeKind::Tensor), "Tensor"),
    ];
    view! {
        <section class="view-controls" aria-label="Chart">
            <div role="tablist" aria-label="Chart mode" class="mode-tabs">{tabs}</div>
            <fieldset class="toggles">
                <legend>"Show"</legend>
                {[Level::L1, Level::Shared, Level::L2, Level::L3, Level::Dram].into_iter().map(level_toggle).collect_view()}
                <label class="toggle">
                    <input type="checkbox" prop:checked=flag(move || state.show_ceilings.get()) on:change=handler(move |_: web_sys::Event| state.show_ceilings.update(|v| *v = !*v)) />
                    "ceilings"
                </label>
                <label class="toggle">
                    <input type="checkbox" prop:checked=flag(move || state.show_walls.get()) on:change=handler(move |_: web_sys::Event| state.show_walls.update(|v| *v = !*v)) />
                    "walls"
                </label>
                <label class="toggle" title="Every compute roof of the machine, not only those of the data types the kernels use">
                    <input type="checkbox" id="all-roofs" prop:checked=flag(move || state.all_roofs.get()) on:change=handler(move |_: web_sys::Event| state.all_roofs.update(|v| *v = !*v)) />
                    "all roofs"
                </label>
                <label>
                    "Compute roof "
                    <select
                        aria-label="Compute roof"
                        on:change=handler(move |ev: web_sys::Event| {
                            let v = event_target_value(&ev);
                            state.compute.set(compute_options.iter().find(|(_, n)| *n == v).and_then(|(k, _)| *k));
                        })
                        prop:value=text(move || compute_options.iter().find(|(k, _)| *k == state.compute.get()).map_or("auto", |(_, n)| *n).to_string())
                    >
                        {compute_options.iter().map(|(_, n)| view! { <option value=*n>{*n}</option> }).collect_view()}
                    </select>
                </label>
                <label>
                    "LD/ST word "
                    <select
                        aria-label="Word size for memory walls"
                        on:change=handler(move |ev: web_sys::Event| state.word.set(if event_target_value(&ev) == "64" { WordSize::Bits64 } else { WordSize::Bits32 }))
                        prop:value=text(move || if state.word.get() == WordSize::Bits64 { "64" } else { "32" }.to_string())
                    >
                        <option value="32">"32-bit"</option>
                        <option value="64">"64-bit"</option>
                    </select>
                </label>
            </fieldset>
            <div class="actions">
                <button type="button" title="Reset zoom (key 0)" disabled=flag(move || state.zoom.get().is_none()) on:click=handler(move |_: web_sys::MouseEvent| state.zoom.set(None))>"Reset zoom"</button>
                <button type="button" aria-label=text(move || theme::label(state.theme.get()).to_string()) on:click=handler(move |_: web_sys::MouseEvent| theme::cycle(state))>{text(move || theme::label(state.theme.get()).to_string())}</button>
                <button type="button" id="copy-link" on:click=handler(move |_: web_sys::MouseEvent| copy_link(state, feedback))>"Copy link"</button>
                <button type="button" title="Keyboard shortcuts (key ?)" on:click=handler(move |_: web_sys::MouseEvent| state.help_open.set(true))>"?"</button>
                <span class="feedback" role="status">{text(move || feedback.get())}</span>
            </div>
            <p class="notice" role="status" hidden=flag(move || state.link_notice.with(Option::is_none))>{text(move || state.link_notice.get().unwrap_or_default())}</p>
        </section>
    }
}
