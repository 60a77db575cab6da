//! The chart: builds the engine's scene from the app state, paints it, and handles the pointer:
//! hover shows a tooltip (from the scene's hit areas), click selects, wheel zooms about the
//! cursor, drag pans, shift-drag zooms to a box; the cursor says which (a hand to grab, a
//! pointer over a dot, a cross for a box). Zoom is stored as data ranges in the state (and so
//! in the address); `None` is the automatic range.
//!
//! A chart whose exact redraw takes longer than a frame
//! ([`crate::gesture_frames::PREVIEW_ABOVE_MS`]) is zoomed and panned by the wheel and the drag
//! with frames drawn from its last exact image, moved (`gesture_frames.rs`,
//! `roofline_web::canvas::preview`, engine `chart::preview`), and drawn exactly once the
//! input pauses for [`BURST_MS`]: the gesture follows the hand at the display's rate whatever
//! the redraw costs. The keyboard's zoom, a click and every other change draw exactly.
//!
//! The chart's size is the page's (`roofline_web::layout`, one rule with the link chart drawn
//! before the app): its container's width, and the window's height below the chart's top.

use crate::state::AppState;
use crate::reactive::{flag, text};
use crate::gesture_frames as frames;
use crate::{canvas, perf};
use leptos::html;
use leptos::prelude::*;
use roofline_engine::chart::{self, ChartInput, Hit, LogScale, Marker, Mode, RunRef, Scene, Zoom};
use roofline_engine::units::si;
use roofline_engine::KernelProfile;

/// Zoom factor per wheel notch / per `+` key.
const ZOOM_STEP: f64 = 1.25;
/// Dots listed as text for assistive technology (beyond this, the table is the better reader).
const MAX_LISTED_DOTS: usize = 500;
/// Redraws closer together than this, ms, are a gesture (wheel notches, a drag: one per frame):
/// the list of dots for assistive technology (up to [`MAX_LISTED_DOTS`] list items, rebuilt
/// whole) is rebuilt once the redraws pause for as long, not on every frame. Measured with
/// tests/bench/browser.mjs's zoom + pan: docs/PERFORMANCE.md.
const BURST_MS: f64 = 120.0;

/// A chart's two axes.
type Axes = (LogScale, LogScale);

/// The scene for the current state at a size, with the map from the scene's kernel indices to
/// the dataset's (the chart shows only the kernels the filter lets through). Reads signals, so
/// it tracks them inside an effect; the exports call it to get exactly what is on screen.
pub fn current_scene(state: AppState, width: f64, height: f64) -> (Scene, Vec<usize>) {
    let visible = state.visible.get().unwrap_or_default();
    let selected = state.selected.get().and_then(|s| visible.iter().position(|&i| i == s));
    let hidden = state.hidden_levels.get();
    let transfers = state.transfers.get();
    let (runs, last_pairing) = crate::compare::shown_runs(state);
    // Each run with its own machine; the last one paired with the current kernels as the
    // user said (the earlier steps of a path pair automatically).
    let last = runs.len().saturating_sub(1);
    let run_refs: Vec<RunRef> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| RunRef { name: &r.name, kernels: &r.kernels, machine: Some(&r.machine), pairing: if i == last { last_pairing.as_ref() } else { None } })
        .collect();
    let color_by = state.color_by.get();
    let build = |kernels: &[KernelProfile], names: &[String]| {
        state.machine.with(|m| {
            let input = ChartInput::new(kernels, m, width, height)
                .with_names(names)
                .with_color_by(color_by)
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
            // Used only when `kernels` is the dataset itself (no filter): see ModelCache.
            state.chart_cache.with(|cache| chart::build(&input.with_cache(cache)))
        })
    };
    // Every kernel shown (no filter): chart the dataset in place rather than copy 10,000
    // profiles on each redraw.
    let scene = state.names.with(|names| {
        state.kernels.with(|ks| {
            if visible.len() == ks.len() && visible.iter().enumerate().all(|(i, &v)| i == v) {
                build(ks, names)
            } else {
                let shown: Vec<KernelProfile> = visible.iter().filter_map(|&i| ks.get(i).cloned()).collect();
                let shown_names: Vec<String> = visible.iter().filter_map(|&i| names.get(i).cloned()).collect();
                build(&shown, &shown_names)
            }
        })
    });
    (scene, visible)
}

/// Data ranges zoomed by `factor` (> 1 zooms in) about the pixel (px, py).
fn zoom_about((x, y): &Axes, px: f64, py: f64, factor: f64) -> Zoom {
    let axis = |s: &LogScale, p: f64| narrow([s.min, s.max], s.from_px(p).log10(), factor);
    Zoom { x: axis(x, px), y: axis(y, py) }
}

/// The range `[min, max]` narrowed by `factor` in log space about `c`, a `log10` within it.
fn narrow([min, max]: [f64; 2], c: f64, factor: f64) -> [f64; 2] {
    let (lo, hi) = (min.log10(), max.log10());
    [10f64.powf(c - (c - lo) / factor), 10f64.powf(c + (hi - c) / factor)]
}

/// Data ranges shifted by a drag of (dx, dy) pixels.
fn pan_by((x, y): &Axes, dx: f64, dy: f64) -> Zoom {
    let axis = |s: &LogScale, d: f64| [s.from_px(s.to_px(s.min) - d), s.from_px(s.to_px(s.max) - d)];
    Zoom { x: axis(x, dx), y: axis(y, dy) }
}

/// Data ranges of a pixel box.
fn box_zoom((x, y): &Axes, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> Zoom {
    let xs = [x.from_px(x0.min(x1)), x.from_px(x0.max(x1))];
    let ys = [y.from_px(y0.max(y1)), y.from_px(y0.min(y1))];
    Zoom { x: xs, y: ys }
}

/// The axes of the last scene, showing `ranges` where given: the ranges on screen, which a
/// gesture's frame (the module's doc) changes without a new scene. The plot's pixels are
/// the same at any zoom.
fn axes_showing(scene: &Scene, ranges: Option<Zoom>) -> Axes {
    let (mut x, mut y) = (scene.x, scene.y);
    if let Some(z) = ranges {
        [x.min, x.max, y.min, y.max] = [z.x[0], z.x[1], z.y[0], z.y[1]];
    }
    (x, y)
}

/// Zooms the chart about its centre (keyboard `+`/`-`): the ranges on screen, each narrowed
/// by `factor` in log space about its middle, which is where the plot's centre pixel lies (a
/// log axis is linear in log space across the plot), so this is the wheel's zoom with the
/// cursor there. It reads the ranges the chart was drawn with ([`AppState::shown_ranges`])
/// instead of building a scene only to read them: for 10,000 kernels, hierarchical, that
/// build cost 3.7 ms a key press in the browser before the redraw's own (docs/PERFORMANCE.md).
pub fn zoom_centre(state: AppState, factor: f64) {
    if let Some(z) = state.shown_ranges.get_untracked() {
        state.zoom.set(Some(zoom_about_middle(z, factor)));
    }
}

/// Ranges zoomed by `factor` (> 1 zooms in) about their middles in log space.
fn zoom_about_middle(z: Zoom, factor: f64) -> Zoom {
    let axis = |r: [f64; 2]| narrow(r, (r[0].log10() + r[1].log10()) / 2.0, factor);
    Zoom { x: axis(z.x), y: axis(z.y) }
}

/// A dot as listed for screen readers (and tests): its kernel (an index into the scene's
/// kernels), centre, text, and whether it is in the bandwidth strip (no FLOPs).
#[derive(Clone, Debug, PartialEq)]
struct ListedDot {
    kernel: usize,
    x: f64,
    y: f64,
    text: String,
    strip: bool,
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
    let dots: RwSignal<Vec<ListedDot>> = RwSignal::new(Vec::new());
    // What the pointer would do now, for the cursor: over a dot, panning, box zoom (shift).
    let over_dot = RwSignal::new(false);
    let shift = RwSignal::new(false);
    // The axes' data ranges, for readers and tests: "x MIN..MAX y MIN..MAX".
    let axes = RwSignal::new(String::new());
    // Bumped by the timer of the exact redraw at a gesture's pause (`gesture_frames.rs`).
    // (A flag turned over: the page's other signals are flags too, so no code for another type.)
    let settle = RwSignal::new(false);

    let measure = move || {
        let Some(div) = wrap_ref.get_untracked() else { return };
        let (w, h) = roofline_web::layout::chart_size(&div);
        if state.chart_size.get_untracked() != (w, h) {
            state.chart_size.set((w, h));
        }
    };
    let _resize = window_event_listener(leptos::ev::resize, move |_| measure());
    Effect::new(move |_| {
        if wrap_ref.get().is_some() {
            measure();
        }
    });
    // What sits above the chart changes its top: measure again once the page has laid out
    // (and has shown what the other effects of the same change show: executor.rs).
    Effect::new(move |_| {
        state.machine_note.track();
        state.error.track();
        state.warnings.track();
        state.kernels.track();
        state.mode.track();
        crate::executor::after_effects_frame(measure);
    });

    // Rebuilds the list of dots for assistive technology from the scene on screen.
    let last_render = StoredValue::new(f64::NEG_INFINITY);
    let relist_timer: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    // Runs from a timer too: after the view is gone it does nothing (`try_` reads).
    let relist = move || {
        let Some(listed) = scene.try_with_value(|sv| -> Vec<ListedDot> {
            let Some((s, visible)) = sv else { return Vec::new() };
            state.kernels.with_untracked(|ks| {
                s.hits
                    .iter()
                    .take(MAX_LISTED_DOTS)
                    .filter_map(|h| {
                        let name = if state.mode.get_untracked() == Mode::Transfers {
                            state.transfers.with_untracked(|ts| ts.get(h.kernel).map(|t| t.name.clone()))?
                        } else {
                            let i = *visible.get(h.kernel)?;
                            state.names.with_untracked(|n| n.get(i).cloned()).or_else(|| ks.get(i).map(KernelProfile::display_name))?
                        };
                        let level = h.level.map(|l| format!(" ({})", l.label())).unwrap_or_default();
                        let text = match (h.marker, s.strip) {
                            (Marker::Bandwidth, Some(strip)) => format!("{name}{level}: no FLOPs, {}B/s attained", si(strip.scale.from_px(h.cx))),
                            _ => format!("{name}{level}: x = {:.4}, y = {}", s.x.from_px(h.cx), si(s.y.from_px(h.cy))),
                        };
                        Some(ListedDot { kernel: h.kernel, x: h.cx, y: h.cy, text, strip: h.marker == Marker::Bandwidth })
                    })
                    .collect()
            })
        }) else {
            return;
        };
        let _ = dots.try_set(listed);
    };
    on_cleanup(move || {
        if let Some(h) = relist_timer.try_get_value().flatten() {
            h.clear();
        }
        frames::forget();
    });
    // Draws the frame a wheel notch or a drag step asked for, when it may (see the module's
    // doc): true when it did.
    let draw_frame = move |canvas_el: &web_sys::HtmlCanvasElement, size: (f64, f64)| -> bool {
        let Some(asked) = frames::take_asked() else { return false };
        // Tracked: the next notch or drag step runs the redraw again.
        if state.zoom.get() != Some(asked) {
            return false;
        }
        perf::mark("roofline:preview-start");
        if !frames::draw(canvas_el, size, asked) {
            return false;
        }
        set_hover.set(None);
        state.shown_ranges.set(Some(asked));
        let exact = move || {
            let _ = settle.try_update(|b| *b = !*b);
        };
        frames::settle_with(set_timeout_with_handle(exact, std::time::Duration::from_millis(BURST_MS as u64)).ok());
        perf::measure("roofline:preview", "roofline:preview-start");
        true
    };
    // Paints a scene and keeps it (for hover, the dots' list, a gesture's frames).
    let paint_generation = StoredValue::new(0u64);
    let paint = move |canvas_el: web_sys::HtmlCanvasElement, s: Scene, visible: Vec<usize>, started: f64| {
        perf::mark("roofline:paint-start");
        if let Err(e) = canvas::paint(&canvas_el, &s) {
            leptos::logging::error!("chart: {e:?}");
        }
        perf::measure("roofline:paint", "roofline:paint-start");
        // The image a gesture's frames move, kept only where they are drawn (a slow redraw).
        let now = perf::now();
        frames::exact(&canvas_el, &s, now - started);
        // The dots as text: at once for a single change, once the redraws pause during a
        // gesture (see `BURST_MS`).
        let burst = now - last_render.get_value() < BURST_MS;
        last_render.set_value(now);
        if let Some(h) = relist_timer.get_value() {
            h.clear();
        }
        relist_timer.set_value(if burst { set_timeout_with_handle(relist, std::time::Duration::from_millis(BURST_MS as u64)).ok() } else { None });
        axes.set(format!("x {:.6e}..{:.6e} y {:.6e}..{:.6e}", s.x.min, s.x.max, s.y.min, s.y.max));
        state.shown_ranges.set(Some(s.ranges()));
        scene.set_value(Some((s, visible)));
        if !burst {
            relist();
        }
        perf::measure("roofline:render", "roofline:render-start");
        if state.loading_mark.get_untracked() {
            perf::measure("roofline:load", "roofline:load-start");
            state.loading_mark.set(false);
        }
    };
    Effect::new(move |_| {
        let (w, h) = state.chart_size.get();
        settle.track();
        let Some(canvas_el) = canvas_ref.get() else { return };
        // A gesture's frame tracks only the zoom, the size and the pause's redraw, which draws
        // whatever else changed meanwhile.
        if draw_frame(&canvas_el, (w, h)) {
            return;
        }
        let started = perf::now();
        perf::mark("roofline:render-start");
        let (s, visible) = current_scene(state, w, h);
        perf::measure("roofline:scene", "roofline:render-start");
        // A load's first chart, when its scene has used up the executor's slice (executor.rs),
        // is painted in a task of its own, first in the next one, so that a large load's scene
        // and paint (25 and 40 ms for 10,000 kernels) are not one long task. Any other redraw
        // paints now. A newer redraw meanwhile makes this one's paint moot.
        let generation = paint_generation.get_value().wrapping_add(1);
        paint_generation.set_value(generation);
        if state.loading_mark.get_untracked() && crate::executor::past_slice() {
            crate::executor::next_task_first(move || {
                if paint_generation.try_get_value() == Some(generation) {
                    paint(canvas_el, s, visible, started);
                }
            });
        } else {
            paint(canvas_el, s, visible, started);
        }
    });

    // No dot is hit while the canvas shows a gesture's frame: the scene's hit areas are where
    // the dots were.
    let hit_at = move |x: f64, y: f64| if frames::showing() { None } else { scene.with_value(|s| s.as_ref().and_then(|(s, _)| s.hit_dot(x, y).copied())) };
    // The axes on screen, for the wheel, the drag and the box.
    let axes_now = move || scene.with_value(|s| s.as_ref().map(|(s, _)| axes_showing(s, state.shown_ranges.get_untracked())));
    let kernel_of = move |h: &Hit| scene.with_value(|s| s.as_ref().and_then(|(_, vis)| vis.get(h.kernel).copied()));
    let pos = |ev: &web_sys::MouseEvent| (ev.offset_x() as f64, ev.offset_y() as f64);

    let on_move = move |ev: web_sys::MouseEvent| {
        let (x, y) = pos(&ev);
        if shift.get_untracked() != ev.shift_key() {
            shift.set(ev.shift_key());
        }
        match drag.get_untracked() {
            Some(Drag::Pan { x0, y0, moved }) => {
                if moved || (x - x0).abs() + (y - y0).abs() > 3.0 {
                    if let Some(z) = axes_now().map(|a| pan_by(&a, x - x0, y - y0)) {
                        frames::ask(z);
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
                if over_dot.get_untracked() != hit.is_some() {
                    over_dot.set(hit.is_some());
                }
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
            // A click on a gesture's frame selects nothing: its dots have moved.
            Some(Drag::Pan { moved: false, .. }) if !frames::showing() => {
                let k = hit_at(x, y).and_then(|h| if state.mode.get_untracked() == Mode::Transfers { None } else { kernel_of(&h) });
                state.selected.set(k);
            }
            Some(Drag::Box { x0, y0, x1, y1 }) if (x1 - x0).abs() > 5.0 && (y1 - y0).abs() > 5.0 => {
                if let Some(z) = axes_now().map(|a| box_zoom(&a, (x0, y0), (x1, y1))) {
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
        if let Some(z) = axes_now().map(|a| zoom_about(&a, x, y, factor)) {
            frames::ask(z);
            state.zoom.set(Some(z));
        }
    };

    // A tooltip opens right of and below the cursor, or left of or above it in the chart's
    // right part or lower part, so it stays over the chart.
    let place = move |x: f64, y: f64| {
        let (w, h) = state.chart_size.get_untracked();
        let (left, flip_x) = if x > 0.55 * w { (x - 14.0, true) } else { (x + 14.0, false) };
        let (top, flip_y) = if y > 0.6 * h { (y - 14.0, true) } else { (y + 14.0, false) };
        (format!("{left}px"), format!("{top}px"), match (flip_x, flip_y) {
            (false, false) => "tooltip",
            (true, false) => "tooltip flip-x",
            (false, true) => "tooltip flip-y",
            (true, true) => "tooltip flip-x flip-y",
        })
    };
    let tooltip = move || {
        let (h, x, y) = hover.get()?;
        let (left, top, class) = place(x, y);
        if state.mode.get() == Mode::Transfers {
            let t = state.transfers.with(|ts| ts.get(h.kernel).cloned())?;
            return Some(view! {
                <div class=class role="tooltip" style:left=left style:top=top>
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
            let strip = scene.with_value(|s| s.as_ref().and_then(|(s, _)| s.strip.map(|a| a.scale.from_px(h.cx))));
            let dot = scene.with_value(|s| s.as_ref().map(|(s, _)| (s.x.from_px(h.cx), s.y.from_px(h.cy))));
            if let (Marker::Bandwidth, Some(bw)) = (h.marker, strip) {
                let level = h.level.map(|l| format!(" at {}", l.label())).unwrap_or_default();
                lines.push(format!("no FLOPs; bandwidth{level}: {}B/s", si(bw)));
            } else if let Some((ix, py)) = dot {
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
                if let Some(h) = g.headroom {
                    lines.push(format!("headroom: {h:.2}×"));
                }
            }
            match crate::compare::changes_by_kernel(state).get(k) {
                Some(Some(c)) => lines.push(crate::compare::tooltip_line(c)),
                // Paired with no kernel of the previous run: the ring-less "new" of the chart.
                Some(None) if !state.runs.with(Vec::is_empty) => lines.push("new: paired with no kernel of the previous run".into()),
                _ => {}
            }
            let short = state.names.with(|n| n.get(k).cloned()).unwrap_or_else(|| r.name.clone());
            Some((short, lines))
        })?;
        let (name, lines) = lines;
        Some(view! {
            <div class=class role="tooltip" style:left=left style:top=top>
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

    let cursor = move || match drag.get() {
        Some(Drag::Pan { moved: true, .. }) => "chart-wrap panning",
        Some(Drag::Box { .. }) => "chart-wrap boxing",
        _ if shift.get() => "chart-wrap boxing",
        _ if over_dot.get() => "chart-wrap over-dot",
        _ => "chart-wrap",
    };
    view! {
        <div class=text(move || cursor().to_string()) node_ref=wrap_ref>
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
                on:mouseleave=move |_| { set_hover.set(None); drag.set(None); over_dot.set(false); }
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
            <p class="drop-prompt" role="status" hidden=flag(move || !state.kernels.with(Vec::is_empty) || state.progress.get().is_some())>
                {text(move || format!(
                    "The roofs of {} are drawn. Drop a profile here, or use Open files…, to place its kernels under them.",
                    state.machine.with(|m| m.name.clone())
                ))}
            </p>
            // No list markers (app/style.css): with them a rebuild's style and layout took twice
            // as long, 45 against 20 ms in traces on a 2-core machine (docs/PERFORMANCE.md,
            // "2026-11-29, late night"). `role="list"`: WebKit drops the role of a list without
            // markers. Not `content-visibility: auto` off the screen, which skipped their layout
            // whole but took the items out of Chromium's accessibility tree.
            <ul class="sr-only chart-dots" role="list" aria-label="Points on the chart">
                {move || dots.get().into_iter().map(|d| view! {
                    <li data-kernel=d.kernel data-x=format!("{:.1}", d.x) data-y=format!("{:.1}", d.y) data-strip=d.strip.then_some("true")>{d.text}</li>
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
        let z = zoom_about(&(s.x, s.y), 200.0, 250.0, 2.0);
        // Cursor at x = 0.1 (a quarter of 4 decades), y = 1e11: the range halves in log space about it.
        assert!((z.x[0] - 10f64.powf(-1.5)).abs() < 1e-12 && (z.x[1] - 10f64.powf(0.5)).abs() < 1e-9, "{z:?}");
        assert!((z.y[0] - 1e10).abs() / 1e10 < 1e-9 && (z.y[1] - 1e12).abs() / 1e12 < 1e-9, "{z:?}");
    }

    #[wasm_bindgen_test]
    fn keyboard_zoom_narrows_about_the_middle_as_the_wheel_at_the_centre() {
        // x 0.01..100 (4 decades, middle 1), y 1e9..1e13 (middle 1e11): zoomed 2× they keep
        // their middles and span 2 decades each.
        let z = zoom_about_middle(Zoom { x: [0.01, 100.0], y: [1e9, 1e13] }, 2.0);
        assert!((z.x[0] - 0.1).abs() < 1e-12 && (z.x[1] - 10.0).abs() < 1e-9, "{z:?}");
        assert!((z.y[0] - 1e10).abs() / 1e10 < 1e-9 && (z.y[1] - 1e12).abs() / 1e12 < 1e-9, "{z:?}");
        // The same as the wheel's zoom about the plot's centre pixel.
        let s = scene();
        let w = zoom_about(&(s.x, s.y), 400.0, 250.0, 2.0);
        for (a, b) in z.x.iter().chain(&z.y).zip(w.x.iter().chain(&w.y)) {
            assert!((a - b).abs() / b < 1e-12, "{z:?} {w:?}");
        }
        // Zooming out by 1.25 widens 4 decades to 5.
        let o = zoom_about_middle(Zoom { x: [0.01, 100.0], y: [1e9, 1e13] }, 1.0 / 1.25);
        assert!((o.x[0] - 10f64.powf(-2.5)).abs() < 1e-12 && (o.x[1] - 10f64.powf(2.5)).abs() < 1e-9, "{o:?}");
    }

    #[wasm_bindgen_test]
    fn a_drag_during_a_gestures_frames_pans_from_the_ranges_on_screen() {
        // The last scene showed x 0.01..100; a frame since shows 0.1..1000 (the scene is not
        // rebuilt for it). A further drag of 200 px (one decade) pans from what is on screen.
        let s = scene();
        let a = axes_showing(&s, Some(Zoom { x: [0.1, 1000.0], y: [1e9, 1e13] }));
        assert_eq!((a.0.px0, a.0.px1, a.1.px0, a.1.px1), (0.0, 800.0, 500.0, 0.0));
        let z = pan_by(&a, 200.0, 0.0);
        assert!((z.x[0] - 0.01).abs() < 1e-12 && (z.x[1] - 100.0).abs() < 1e-9, "{z:?}");
        // With no ranges given, the scene's own.
        assert_eq!(axes_showing(&s, None), (s.x, s.y));
    }

    #[wasm_bindgen_test]
    fn pan_and_box() {
        let s = scene();
        let a = (s.x, s.y);
        let z = pan_by(&a, 200.0, 0.0);
        assert!((z.x[0] - 0.001).abs() < 1e-12 && (z.x[1] - 10.0).abs() < 1e-9, "{z:?}");
        let b = box_zoom(&a, (400.0, 0.0), (200.0, 250.0));
        assert!((b.x[0] - 0.1).abs() < 1e-12 && (b.x[1] - 1.0).abs() < 1e-9 && (b.y[0] - 1e11).abs() < 1.0, "{b:?}");
    }
}
