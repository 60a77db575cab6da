//! The chart: builds the engine's scene from the app state, paints it, and answers hover
//! (tooltip) and click (selection) from the scene's hit areas.

use crate::app::AppState;
use crate::{canvas, perf};
use leptos::html;
use leptos::prelude::*;
use roofline_engine::chart::{self, ChartInput, Scene, Theme};
use roofline_engine::units::si;

const MAX_WIDTH_PX: f64 = 960.0;

#[component]
pub fn ChartView(state: AppState) -> impl IntoView {
    let canvas_ref = NodeRef::<html::Canvas>::new();
    let wrap_ref = NodeRef::<html::Div>::new();
    let scene: StoredValue<Option<Scene>> = StoredValue::new(None);
    let (hover, set_hover) = signal::<Option<(usize, f64, f64)>>(None);
    let (width, set_width) = signal(MAX_WIDTH_PX);

    let _resize = window_event_listener(leptos::ev::resize, move |_| {
        if let Some(div) = wrap_ref.get_untracked() {
            set_width.set((div.client_width() as f64).clamp(320.0, MAX_WIDTH_PX));
        }
    });
    Effect::new(move |_| {
        if let Some(div) = wrap_ref.get() {
            set_width.set((div.client_width() as f64).clamp(320.0, MAX_WIDTH_PX));
        }
    });

    Effect::new(move |_| {
        let kernels = state.kernels.get();
        let machine = state.machine.get();
        let selected = state.selected.get();
        let w = width.get();
        let Some(canvas_el) = canvas_ref.get() else { return };
        perf::mark("roofline:render-start");
        let input = ChartInput::new(&kernels, &machine, w, (w * 0.62).round()).with_mode(state.mode.get()).with_selected(selected).with_theme(Theme::Light);
        let s = chart::build(&input);
        if let Err(e) = canvas::paint(&canvas_el, &s) {
            leptos::logging::error!("chart: {e:?}");
        }
        scene.set_value(Some(s));
        perf::measure("roofline:render", "roofline:render-start");
        if state.loading_mark.get_untracked() {
            perf::measure("roofline:load", "roofline:load-start");
            state.loading_mark.set(false);
        }
    });

    let at = move |ev: &web_sys::MouseEvent| -> Option<(usize, f64, f64)> {
        let (x, y) = (ev.offset_x() as f64, ev.offset_y() as f64);
        scene.with_value(|s| s.as_ref().and_then(|s| s.hit(x, y))).map(|k| (k, x, y))
    };
    let tooltip = move || {
        hover.get().and_then(|(k, x, y)| {
            let kernels = state.kernels.get();
            let kernel = kernels.get(k)?;
            let machine = state.machine.get();
            let flops = kernel.total_flops(machine.flops_per_tensor_inst);
            let bytes = kernel.counters.get(roofline_engine::counters::Counter::DramBytes);
            let time = kernel.time_s();
            let perf_line = match (flops, time) {
                (Some(f), Some(t)) if t > 0.0 => format!("{}FLOP/s", si(f / t)),
                _ => "–".into(),
            };
            let ai = match (flops, bytes) {
                (Some(f), Some(b)) if b > 0.0 => format!("{:.3} FLOP/byte", f / b),
                _ => "–".into(),
            };
            Some(view! {
                <div class="tooltip" role="tooltip" style=format!("left:{}px;top:{}px", x + 14.0, y + 14.0)>
                    <div class="tooltip-name">{kernel.name.clone()}</div>
                    <div>"time: " {time.map_or("–".into(), |t| format!("{}s", si(t)))}</div>
                    <div>"intensity: " {ai}</div>
                    <div>"performance: " {perf_line}</div>
                </div>
            })
        })
    };

    view! {
        <div class="chart-wrap" node_ref=wrap_ref>
            <canvas
                id="roofline-canvas"
                node_ref=canvas_ref
                role="img"
                aria-label=move || format!("Roofline chart of {} kernels on {}", state.kernels.get().len(), state.machine.get().name)
                on:mousemove=move |ev| set_hover.set(at(&ev))
                on:mouseleave=move |_| set_hover.set(None)
                on:click=move |ev| state.selected.set(at(&ev).map(|(k, _, _)| k))
            ></canvas>
            {tooltip}
        </div>
    }
}
