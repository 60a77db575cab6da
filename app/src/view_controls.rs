//! Chart controls: the mode tabs, the chart options (only those that apply to the mode and
//! the data: the engine's `chart::controls`), and the share, theme and help buttons.

use crate::state::AppState;
use crate::theme;
use leptos::prelude::*;
use crate::reactive::{flag, handler, text, Flag, Handler};
use roofline_engine::chart::controls::Controls;
use roofline_engine::chart::{ColorBy, Mode, WordSize};
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
    // A view change of the last moments may still wait for its write (address.rs).
    crate::address::flush(state);
    let href = w.location().href().unwrap_or_default();
    // Copied all the same: a long link works where it arrives whole; the note says where it
    // may not and the two ways to share a short one (share::LONG_LINK_CHARS).
    let long = roofline_engine::share::long_link_warning(href.chars().count(), "Export → View file (.roofline.json)");
    let promise = w.navigator().clipboard().write_text(&href);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        let mut msg = if ok { "Link copied".to_string() } else { "Copy failed: copy the address bar instead".to_string() };
        for note in [state.link_notice.get_untracked(), long].into_iter().flatten() {
            msg = format!("{msg}. {}", roofline_engine::notice::capitalise(&note));
        }
        feedback.set(msg);
    });
}

/// The chart mode tabs (keys 1–5 too).
#[component]
pub fn ModeTabs(state: AppState) -> impl IntoView {
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
    view! { <div role="tablist" aria-label="Chart mode" class="mode-tabs">{tabs}</div> }
}

/// A checkbox with its label, shown only while `shown` holds.
fn toggle(label: crate::reactive::Text, checked: Flag, on_change: Handler<web_sys::Event>, id: Option<&'static str>, shown: Flag) -> impl IntoView {
    view! {
        <label class="toggle" hidden=flag(move || !shown())>
            <input type="checkbox" id=id prop:checked=checked on:change=on_change />
            {label}
        </label>
    }
}

/// What the Chart menu holds: the settings that change the current chart, and nothing else
/// (the engine's `chart::controls` says which; the others are hidden, not built again, which
/// keeps one copy of each control's code in the wasm).
#[component]
pub fn ChartOptions(state: AppState) -> impl IntoView {
    let controls = state.controls;
    let compute_options = [
        (None, "auto"),
        (Some(ComputeKind::Fp64), "FP64"),
        (Some(ComputeKind::Fp32), "FP32"),
        (Some(ComputeKind::Fp16), "FP16"),
        (Some(ComputeKind::Tensor), "Tensor"),
    ];
    let when = |f: fn(&Controls) -> bool| flag(move || controls.with(f));
    let level_toggle = move |l: Level| {
        let name = text(move || controls.with(|c| c.levels.iter().find(|(x, _)| *x == l).map(|(_, n)| n.clone()).unwrap_or_default()));
        let shown = flag(move || controls.with(|c| c.levels.iter().any(|(x, _)| *x == l)));
        let checked = flag(move || !state.hidden_levels.get().contains(&l));
        toggle(name, checked, handler(move |_: web_sys::Event| state.hidden_levels.update(|h| if let Some(p) = h.iter().position(|x| *x == l) { h.remove(p); } else { h.push(l); })), None, shown)
    };
    let fixed = |s: &'static str| text(move || s.to_string());
    view! {
        <div class="chart-options">
            <fieldset class="option-group" hidden=flag(move || controls.with(|c| c.levels.is_empty()))>
                <legend>"Levels"</legend>
                {Level::ALL.into_iter().map(level_toggle).collect_view()}
            </fieldset>
            <fieldset class="option-group">
                <legend>"Roofs"</legend>
                {toggle(fixed("Ceilings"), flag(move || state.show_ceilings.get()), handler(move |_: web_sys::Event| state.show_ceilings.update(|v| *v = !*v)), None, when(|c| c.ceilings))}
                {toggle(fixed("All roofs of the machine"), flag(move || state.all_roofs.get()), handler(move |_: web_sys::Event| state.all_roofs.update(|v| *v = !*v)), Some("all-roofs"), when(|c| c.all_roofs))}
                {toggle(fixed("Memory walls"), flag(move || state.show_walls.get()), handler(move |_: web_sys::Event| state.show_walls.update(|v| *v = !*v)), None, when(|c| c.walls))}
                <label class="select-row" hidden=when(|c| !c.compute_roof)>
                    "Ridge of "
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
                <label class="select-row" hidden=when(|c| !c.walls)>
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
            <fieldset class="option-group" hidden=when(|c| !c.color_by)>
                <legend>"Dot colour"</legend>
                {ColorBy::ALL.into_iter().map(|by| view! {
                    <label class="toggle">
                        <input type="radio" name="color-by" value=by.id()
                            prop:checked=flag(move || state.color_by.get() == by)
                            on:change=handler(move |_: web_sys::Event| state.color_by.set(by)) />
                        {by.label()}
                    </label>
                }).collect_view()}
            </fieldset>
            <button type="button" title="Reset zoom (key 0)" disabled=flag(move || state.zoom.get().is_none()) on:click=handler(move |_: web_sys::MouseEvent| state.zoom.set(None))>"Reset zoom"</button>
        </div>
    }
}

/// Copy link, theme and help.
#[component]
pub fn ShareButtons(state: AppState) -> impl IntoView {
    let feedback = RwSignal::new(String::new());
    view! {
        <div class="share-buttons">
            <button type="button" id="copy-link" on:click=handler(move |_: web_sys::MouseEvent| copy_link(state, feedback))>"Copy link"</button>
            <button type="button" class="theme-button" aria-label=text(move || theme::label(state.theme.get()).to_string()) title=text(move || theme::label(state.theme.get()).to_string()) on:click=handler(move |_: web_sys::MouseEvent| theme::cycle(state))>
                <span aria-hidden="true">{text(move || theme::icon(state.theme.get()).to_string())}</span>
            </button>
            <button type="button" class="help-button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (key ?)" on:click=handler(move |_: web_sys::MouseEvent| state.help_open.set(true))>"?"</button>
            <span class="feedback" role="status">{text(move || feedback.get())}</span>
        </div>
    }
}
