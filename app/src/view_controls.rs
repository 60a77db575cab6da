//! Chart controls: the mode tabs, the chart options (only those that apply to the mode and
//! the data: the engine's `chart::controls`), and the share, theme and help buttons.

use crate::app::AppState;
use crate::theme;
use leptos::prelude::*;
use crate::reactive::{flag, handler, text};
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
    let href = w.location().href().unwrap_or_default();
    let promise = w.navigator().clipboard().write_text(&href);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        let mut msg = if ok { "Link copied".to_string() } else { "Copy failed: copy the address bar instead".to_string() };
        if let Some(n) = state.link_notice.get_untracked() {
            msg = format!("{msg}. {}", roofline_engine::notice::capitalise(&n));
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

/// A checkbox with its label.
fn toggle(label: String, checked: crate::reactive::Flag, on_change: impl FnMut(web_sys::Event) + 'static, id: Option<&'static str>, title: Option<&'static str>) -> impl IntoView {
    view! {
        <label class="toggle" title=title>
            <input type="checkbox" id=id prop:checked=checked on:change=handler(on_change) />
            {label}
        </label>
    }
}

/// What the Chart menu holds: the settings that change the current chart, and nothing else.
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
    let level_toggle = move |(l, name): (Level, String)| {
        let checked = flag(move || !state.hidden_levels.get().contains(&l));
        toggle(name, checked, move |_| state.hidden_levels.update(|h| if let Some(p) = h.iter().position(|x| *x == l) { h.remove(p); } else { h.push(l); }), None, None)
    };
    let levels = move || {
        let levels = controls.with(|c| c.levels.clone());
        (!levels.is_empty()).then(|| view! {
            <fieldset class="option-group">
                <legend>"Levels"</legend>
                {levels.into_iter().map(level_toggle).collect_view()}
            </fieldset>
        })
    };
    let roofs = move || {
        let c = controls.get();
        view! {
            <fieldset class="option-group">
                <legend>"Roofs"</legend>
                {c.ceilings.then(|| toggle("Ceilings".into(), flag(move || state.show_ceilings.get()), move |_| state.show_ceilings.update(|v| *v = !*v), None, None))}
                {c.all_roofs.then(|| toggle("All roofs of the machine".into(), flag(move || state.all_roofs.get()), move |_| state.all_roofs.update(|v| *v = !*v), Some("all-roofs"), Some("Every compute roof of the machine, not only those of the data types the kernels use")))}
                {c.walls.then(|| toggle("Memory walls".into(), flag(move || state.show_walls.get()), move |_| state.show_walls.update(|v| *v = !*v), None, None))}
                {c.compute_roof.then(|| view! {
                    <label class="select-row">
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
                })}
                {c.walls.then(|| view! {
                    <label class="select-row">
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
                })}
            </fieldset>
        }
    };
    let colors = move || {
        controls.with(|c| c.color_by).then(|| view! {
            <fieldset class="option-group">
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
        })
    };
    view! {
        <div class="chart-options">
            {levels}
            {roofs}
            {colors}
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
