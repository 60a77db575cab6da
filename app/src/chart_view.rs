//! The chart: builds the engine's scene from the app state, paints it, and handles the pointer:
//! hover shows a tooltip (from the scene's hit areas), click selects, wheel zooms about the
//! cursor, drag pans, shift-drag zooms to a box. Zoom is stored as data ranges in the state (and
//! so in the address); `None` is the automatic range.

use crate::app::AppState;
use crate::{canvas, perf};
use leptos::html;
use leptos::prelude::*;
use roofline_engine::chart::{self, ChartInput, Hit, Marker, Mode, RunRef, Scene, Zoom};
use roofline_engine::units::si;
use roofline_engine::KernelProfile;

const MAX_WIDTH_PX: f64 = 960.0;
/// Zoom factor per wheel notch / per `+` key.
const ZOOM_STEP: f64 = 1.25;
/// Dots listed as text for assistive technology (beyond this, the table is the better reader).
const MAX_LISTED_DOTS: usize = 500;

/// The scene for the current state at a size, with the map from the scene's kernel indices to
/// the dataset's (the chart shows only the kernels the filter lets through). Reads signals, so
/// it tracks them inside an effect; the exports call it to get exactly what is on screen.
pub fn current_scene(state: AppState, width: f64, height: f64) -> (Scene, Vec<usize>) {
    let visible = state.visible.get().unwrap_or_default();
    let selected = state.selected.get().and_then(|s| visible.iter().position(|&i| i == s));
    let hidden = state.hidden_levels.get();
    let transfers = state.transfers.get();
    let runs = crate::compare::shown_runs(state);
    let run_refs: Vec<RunRef> = runs.iter().map(|(name, ks)| RunRef { name, kernels: ks }).collect();
    let build = |kernels: &[KernelProfile]| {
        state.machine.with(|m| {
            let input = ChartInput::new(kernels, m, width, height)
                .with_mode(state.mode.get())
                .with_compute(state.compute.get())
                .with_selected(selected)
                .with_theme(state.effective_theme())
                .with_zoom(state.zoom.get())
                .with_hidden_levels(&hidden)
                .with_ceilings(state.show_ceilings.get())
                .with_all_roofs(state.all_roofs.get())
                .with_walls(state.show_walls.get())
                .with_word(state.word.get())
                .with_transfers(&transfers)
                .with_runs(&run_refs);
            chart::build(&input)
        })
    };
    // Every kernel shown (no filter): chart the dataset in place rather than copy 10,000
    // profiles on each redraw.
    let scene = state.kernels.with(|ks| {
        if visible.len() == ks.len() && visible.iter().enumerate().all(|(i, &v)| i == v) {
            build(ks)
        } else {
            let shown: Vec<KernelProfile> = visible.iter().filter_map(|&i| ks.get(i).cloned()).collect();
            build(&shown)
        }
    });
    (scene, visible)
}

/// Data ranges zoomed by `factor` (> 1 zooms in) about the pixel (px, py).
fn zoom_about(scene: &Scene, px: f64, py: f64, factor: f64) -> Zoom {
    let axis = |s: &chart::LogScale, p: f64| {
        let c = s.from_px(p).log10();
        let (lo, hi) = (s.min.log10(), s.max.log10());
        [10f64.powf(c - (c - lo) / factor), 10f64.powf(c + (hi - c) / factor)]
    };
    Zoom { x: axis(&scene.x, px), y: axis(&scene.y, py) }
}

/// Data ranges shifted by a drag of (dx, dy) pixels.
fn pan_by(scene: &Scene, dx: f64, dy: f64) -> Zoom {
    let axis = |s: &chart::LogScale, d: f64| [s.from_px(s.to_px(s.min) - d), s.from_px(s.to_px(s.max) - d)];
    Zoom { x: axis(&scene.x, dx), y: axis(&scene.y, dy) }
}

/// Data ranges of a pixel box.
fn box_zoom(scene: &Scene, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> Zoom {
    let xs = [scene.x.from_px(x0.min(x1)), scene.x.from_px(x0.max(x1))];
    let ys = [scene.y.from_px(y0.max(y1)), scene.y.from_px(y0.min(y1))];
    Zoom { x: xs, y: ys }
}

/// Zooms the chart about its centre (keyboard `+`/`-`).
pub fn zoom_centre(state: AppState, factor: f64) {
    let width = state.chart_width.get_untracked();
    let (scene, _) = current_scene(state, width, (width * 0.62).round());
    let [l, t, r, b] = scene.plot;
    state.zoom.set(Some(zoom_about(&scene, (l + r) / 2.0, (t + b) / 2.0, factor)));
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Drag {
    Pan { x0: f64, y0: f64, moved: bool },
    Box { x0: f64, y0: f64, x1: f64, y1: f64 },
}

#[component]
pub fn ChartView(state: AppState) -> impl IntoView {
    let canvas_ref = NodeRef::<html::Canvas>::new();
    let wrap_ref = NodeRef::<html::Div>::new();
    let scene: StoredValue<Option<(Scene, Vec<usize>)>> = StoredValue::new(None);
    let (hover, set_hover) = signal::<Option<(Hit, f64, f64)>>(None);
    let drag: RwSignal<Option<Drag>> = RwSignal::new(None);
    // The dots as text for screen readers (a canvas is opaque to them): name and position.
    let dots: RwSignal<Vec<(usize, f64, f64, String)>> = RwSignal::new(Vec::new());
    // The axes' data ranges, for readers and tests: "x MIN..MAX y MIN..MAX".
    let axes = RwSignal::new(String::new());

    let measure = move || {
        if let Some(div) = wrap_ref.get_untracked() {
            state.chart_width.set((div.client_width() as f64).clamp(320.0, MAX_WIDTH_PX));
        }
    };
    let _resize = window_event_listener(leptos::ev::resize, move |_| measure());
    Effect::new(move |_| {
        if wrap_ref.get().is_some() {
            measure();
        }
    });

    Effect::new(move |_| {
        let w = state.chart_width.get();
        let Some(canvas_el) = canvas_ref.get() else { return };
        perf::mark("roofline:render-start");
        let (s, visible) = current_scene(state, w, (w * 0.62).round());
        perf::measure("roofline:scene", "roofline:render-start");
        perf::mark("roofline:paint-start");
        if let Err(e) = canvas::paint(&canvas_el, &s) {
            leptos::logging::error!("chart: {e:?}");
        }
        perf::measure("roofline:paint", "roofline:paint-start");
        let listed: Vec<(usize, f64, f64, String)> = state.kernels.with_untracked(|ks| {
            s.hits
                .iter()
                .take(MAX_LISTED_DOTS)
                .filter_map(|h| {
                    let name = if state.mode.get_untracked() == Mode::Transfers {
                        state.transfers.with_untracked(|ts| ts.get(h.kernel).map(|t| t.name.clone()))?
                    } else {
                        ks.get(*visible.get(h.kernel)?)?.display_name()
                    };
                    let level = h.level.map(|l| format!(" ({})", l.label())).unwrap_or_default();
                    let text = format!("{name}{level}: x = {:.4}, y = {}", s.x.from_px(h.cx), si(s.y.from_px(h.cy)));
                    Some((h.kernel, h.cx, h.cy, text))
                })
                .collect()
        });
        dots.set(listed);
        axes.set(format!("x {:.6e}..{:.6e} y {:.6e}..{:.6e}", s.x.min, s.x.max, s.y.min, s.y.max));
        scene.set_value(Some((s, visible)));
        perf::measure("roofline:render", "roofline:render-start");
        if state.loading_mark.get_untracked() {
            perf::measure("roofline:load", "roofline:load-start");
            state.loading_mark.set(false);
        }
    });

    let hit_at = move |x: f64, y: f64| scene.with_value(|s| s.as_ref().and_then(|(s, _)| s.hit_dot(x, y).copied()));
    let kernel_of = move |h: &Hit| scene.with_value(|s| s.as_ref().and_then(|(_, vis)| vis.get(h.kernel).copied()));
    let pos = |ev: &web_sys::MouseEvent| (ev.offset_x() as f64, ev.offset_y() as f64);

    let on_move = move |ev: web_sys::MouseEvent| {
        let (x, y) = pos(&ev);
        match drag.get_untracked() {
            Some(Drag::Pan { x0, y0, moved }) => {
                if moved || (x - x0).abs() + (y - y0).abs() > 3.0 {
                    if let Some(z) = scene.with_value(|s| s.as_ref().map(|(s, _)| pan_by(s, x - x0, y - y0))) {
                        state.zoom.set(Some(z));
                    }
                    drag.set(Some(Drag::Pan { x0: x, y0: y, moved: true }));
                }
                set_hover.set(None);
            }
            Some(Drag::Box { x0, y0, .. }) => drag.set(Some(Drag::Box { x0, y0, x1: x, y1: y })),
            None => {
                perf::mark("roofline:hover-start");
                let hit = hit_at(x, y);
                perf::measure_latest("roofline:hover", "roofline:hover-start");
                set_hover.set(hit.map(|h| (h, x, y)));
            }
        }
    };
    let on_down = move |ev: web_sys::MouseEvent| {
        if ev.button() != 0 {
            return;
        }
        let (x, y) = pos(&ev);
        drag.set(Some(if ev.shift_key() { Drag::Box { x0: x, y0: y, x1: x, y1: y } } else { Drag::Pan { x0: x, y0: y, moved: false } }));
    };
    let on_up = move |ev: web_sys::MouseEvent| {
        let (x, y) = pos(&ev);
        match drag.get_untracked() {
            Some(Drag::Pan { moved: false, .. }) => {
                let k = hit_at(x, y).and_then(|h| if state.mode.get_untracked() == Mode::Transfers { None } else { kernel_of(&h) });
                state.selected.set(k);
            }
            Some(Drag::Box { x0, y0, x1, y1 }) if (x1 - x0).abs() > 5.0 && (y1 - y0).abs() > 5.0 => {
                if let Some(z) = scene.with_value(|s| s.as_ref().map(|(s, _)| box_zoom(s, (x0, y0), (x1, y1)))) {
                    state.zoom.set(Some(z));
                }
            }
            _ => {}
        }
        drag.set(None);
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let (x, y) = (ev.offset_x() as f64, ev.offset_y() as f64);
        let factor = if ev.delta_y() < 0.0 { ZOOM_STEP } else { 1.0 / ZOOM_STEP };
        if let Some(z) = scene.with_value(|s| s.as_ref().map(|(s, _)| zoom_about(s, x, y, factor))) {
            state.zoom.set(Some(z));
        }
    };

    let tooltip = move || {
        let (h, x, y) = hover.get()?;
        if state.mode.get() == Mode::Transfers {
            let t = state.transfers.with(|ts| ts.get(h.kernel).cloned())?;
            return Some(view! {
                <div class="tooltip" role="tooltip" style:left=format!("{}px", x + 14.0) style:top=format!("{}px", y + 14.0)>
                    <div class="tooltip-name">{t.name}</div>
                    <div>{format!("{} calls, {}", t.count, t.bytes.map_or("size unknown".into(), |b| format!("{}B", si(b))))}</div>
                    <div>{t.time_s.map_or("time unknown".into(), |s| format!("{}s", si(s)))}</div>
                </div>
            }.into_any());
        }
        let k = kernel_of(&h)?;
        let lines = state.report.with(|rep| {
            let r = rep.kernels.get(k)?;
            let mut lines = vec![format!("time: {}", r.time_s.map_or("–".into(), |t| format!("{}s", si(t))))];
            let what = match h.marker {
                Marker::Thread => "thread instructions ÷ 32",
                Marker::Tensor => "tensor instructions",
                Marker::GlobalLdSt => "global LD/ST",
                Marker::SharedLdSt => "shared LD/ST",
                _ => "",
            };
            let dot = scene.with_value(|s| s.as_ref().map(|(s, _)| (s.x.from_px(h.cx), s.y.from_px(h.cy))));
            if let Some((ix, py)) = dot {
                let level = h.level.map(|l| format!(" at {}", l.label())).unwrap_or_default();
                let (xu, yu) = match state.mode.get() {
                    Mode::Instruction => ("warp inst/transaction", "inst/s"),
                    Mode::Walls => ("inst/transaction", "inst/s"),
                    _ => ("FLOP/byte", "FLOP/s"),
                };
                let what = if what.is_empty() { String::new() } else { format!(" ({what})") };
                lines.push(format!("intensity{level}: {ix:.3} {xu}{what}"));
                lines.push(format!("performance: {}{yu}", si(py)));
            }
            if let Some(g) = &r.guidance {
                lines.push(format!("bound by {} at {:.0}% of its roof", g.binding.name, 100.0 * g.attained_fraction));
                lines.push(format!("headroom: {:.2}×", g.headroom));
            }
            if let Some(Some(c)) = crate::compare::changes_by_kernel(state).get(k) {
                lines.push(crate::compare::tooltip_line(c));
            }
            Some((r.name.clone(), lines))
        })?;
        let (name, lines) = lines;
        Some(view! {
            <div class="tooltip" role="tooltip" style:left=format!("{}px", x + 14.0) style:top=format!("{}px", y + 14.0)>
                <div class="tooltip-name">{name}</div>
                {lines.into_iter().map(|l| view! { <div>{l}</div> }).collect_view()}
            </div>
        }.into_any())
    };
    let box_overlay = move || match drag.get() {
        Some(Drag::Box { x0, y0, x1, y1 }) => Some(view! {
            <div
                class="zoom-box"
                style:left=format!("{}px", x0.min(x1))
                style:top=format!("{}px", y0.min(y1))
                style:width=format!("{}px", (x1 - x0).abs())
                style:height=format!("{}px", (y1 - y0).abs())
            ></div>
        }),
        _ => None,
    };

    view! {
        <div class="chart-wrap" node_ref=wrap_ref>
            <canvas
                id="roofline-canvas"
                node_ref=canvas_ref
                role="img"
                tabindex="0"
                data-axes=move || axes.get()
                aria-label=move || format!(
                    "{} roofline chart of {} kernels on {}",
                    state.mode.get().id(),
                    state.visible.get().map_or(0, |v| v.len()),
                    state.machine.with(|m| m.name.clone())
                )
                on:mousemove=on_move
                on:mousedown=on_down
                on:mouseup=on_up
                on:mouseleave=move |_| { set_hover.set(None); drag.set(None); }
                on:wheel=on_wheel
            ></canvas>
            {tooltip}
            {box_overlay}
            <p class="empty-hint" role="status" hidden=move || !dots.with(Vec::is_empty) || state.kernels.with(Vec::is_empty)>
                {move || format!(
                    "No kernel has what the {} chart needs. Open \"How to collect\" for the profiler command.",
                    state.mode.get().id()
                )}
            </p>
            <ul class="sr-only chart-dots" aria-label="Points on the chart">
                {move || dots.get().into_iter().map(|(k, x, y, text)| view! {
                    <li data-kernel=k data-x=format!("{x:.1}") data-y=format!("{y:.1}")>{text}</li>
                }).collect_view()}
            </ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use roofline_engine::chart::LogScale;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    fn scene() -> Scene {
        let x = LogScale { min: 0.01, max: 100.0, px0: 0.0, px1: 800.0 };
        let y = LogScale { min: 1e9, max: 1e13, px0: 500.0, px1: 0.0 };
        Scene::new(800.0, 500.0, chart::Color(255, 255, 255), vec![], vec![], [0.0, 0.0, 800.0, 500.0], x, y)
    }

    #[wasm_bindgen_test]
    fn zoom_about_the_cursor_keeps_the_cursor_value() {
        let s = scene();
        let z = zoom_about(&s, 200.0, 250.0, 2.0);
        // Cursor at x = 0.1 (a quarter of 4 decades), y = 1e11: the range halves in log space about it.
        assert!((z.x[0] - 10f64.powf(-1.5)).abs() < 1e-12 && (z.x[1] - 10f64.powf(0.5)).abs() < 1e-9, "{z:?}");
        assert!((z.y[0] - 1e10).abs() / 1e10 < 1e-9 && (z.y[1] - 1e12).abs() / 1e12 < 1e-9, "{z:?}");
    }

    #[wasm_bindgen_test]
    fn pan_and_box() {
        let s = scene();
        let z = pan_by(&s, 200.0, 0.0);
        assert!((z.x[0] - 0.001).abs() < 1e-12 && (z.x[1] - 10.0).abs() < 1e-9, "{z:?}");
        let b = box_zoom(&s, (400.0, 0.0), (200.0, 250.0));
        assert!((b.x[0] - 0.1).abs() < 1e-12 && (b.x[1] - 1.0).abs() < 1e-9 && (b.y[0] - 1e11).abs() < 1.0, "{b:?}");
    }
}
