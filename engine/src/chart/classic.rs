//! The classic roofline chart: one memory roof (DRAM/HBM), one compute roof, a dot per kernel
//! at (FLOPs / DRAM bytes, FLOPs / time). GPU course slides: Performance = min{peak, AI × BW}.

use super::labels::{rotated, text_box, Placer};
use super::scale::{decade_range, tick_label, LogScale};
use super::scene::{Anchor, Color, Hit, Scene, Shape};
use super::ChartInput;
use crate::model::point::classic_points;
use crate::model::{ComputeKind, Level};
use crate::profile::{KernelProfile, Precision};
use crate::units::{si, GIGA};

const FONT_PX: f64 = 12.0;
const MARGIN: [f64; 4] = [64.0, 16.0, 20.0, 46.0]; // left, top, right, bottom

/// The compute ceiling that matters for these kernels: the kind with the most FLOPs.
pub fn dominant_kind(kernels: &[KernelProfile], flops_per_tensor_inst: Option<f64>) -> ComputeKind {
    let sum = |f: &dyn Fn(&KernelProfile) -> Option<f64>| kernels.iter().filter_map(f).sum::<f64>();
    let candidates = [
        (ComputeKind::Fp64, sum(&|k| k.flops(Precision::Fp64))),
        (ComputeKind::Fp32, sum(&|k| k.flops(Precision::Fp32))),
        (ComputeKind::Fp16, sum(&|k| k.flops(Precision::Fp16))),
        (ComputeKind::Tensor, sum(&|k| k.tensor_flops(flops_per_tensor_inst))),
    ];
    candidates.iter().filter(|c| c.1 > 0.0).max_by(|a, b| a.1.total_cmp(&b.1)).map_or(ComputeKind::Fp64, |c| c.0)
}

pub fn build(input: &ChartInput) -> Scene {
    let pal = input.theme.palette();
    let m = input.machine;
    let points = classic_points(input.kernels, m);
    let kind = input.compute.unwrap_or_else(|| dominant_kind(input.kernels, m.flops_per_tensor_inst));
    let compute = m.compute_ceiling(kind).or_else(|| m.compute.first());
    let memory = m.memory_level(Level::Dram).or_else(|| m.memory.last());
    let peak = compute.map_or(1e12, |c| c.flops_per_s);
    let bw = memory.map_or(1e11, |l| l.bytes_per_s);
    let ridge = peak / bw;

    let xs = points.iter().map(|p| p.flops_per_byte).chain([ridge]);
    let ys = points.iter().map(|p| p.flops_per_s).chain([peak]);
    let (x_lo, x_hi) = xs.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let (y_lo, y_hi) = ys.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let x_range = input.zoom.map_or_else(|| decade_range(x_lo, x_hi, 0.3), |z| z.x);
    let y_range = input.zoom.map_or_else(|| decade_range(y_lo.min(peak / 1e3), y_hi, 0.15), |z| z.y);

    let plot = [MARGIN[0], MARGIN[1], input.width - MARGIN[2], input.height - MARGIN[3]];
    let x = LogScale { min: x_range[0], max: x_range[1], px0: plot[0], px1: plot[2] };
    let y = LogScale { min: y_range[0], max: y_range[1], px0: plot[3], px1: plot[1] };
    let mut shapes = Vec::new();
    axes(&mut shapes, &x, &y, plot, pal.grid, pal.axis, pal.text);

    // Dots first, so labels avoid them.
    let total_time_s: f64 = input.kernels.iter().filter_map(|k| k.time_s()).sum();
    let mut placer = Placer::new(plot);
    let mut hits = Vec::new();
    let mut dot_shapes = Vec::new();
    for p in &points {
        let (cx, cy) = (x.to_px(p.flops_per_byte), y.to_px(p.flops_per_s));
        if !(plot[0] - 1.0..=plot[2] + 1.0).contains(&cx) || !(plot[1] - 1.0..=plot[3] + 1.0).contains(&cy) {
            continue;
        }
        let share = input.kernels[p.kernel].time_s().map_or(0.0, |t| t / total_time_s.max(f64::MIN_POSITIVE));
        let r = 3.5 + 9.0 * share.sqrt();
        let color = pal.dots[p.kernel % pal.dots.len()];
        dot_shapes.push(Shape::Circle { cx, cy, r, fill: Some(color), stroke: Some(pal.background), width: 1.0 });
        if input.selected == Some(p.kernel) {
            dot_shapes.push(Shape::Circle { cx, cy, r: r + 3.0, fill: None, stroke: Some(pal.selection), width: 2.0 });
        }
        placer.occupy([cx - r, cy - r, cx + r, cy + r]);
        hits.push(Hit { kernel: p.kernel, cx, cy, r });
    }

    if let (Some(mem), Some(comp)) = (memory, compute) {
        roofs(&mut shapes, &mut placer, &x, &y, plot, (&mem.name, bw), (&comp.name, peak), (pal.memory, pal.compute, pal.text));
    }
    shapes.extend(dot_shapes);
    let legend = "dot area ∝ share of run time";
    let lb = text_box(plot[0] + 8.0, plot[1] + 16.0, legend, FONT_PX - 1.0, Anchor::Start);
    if placer.place(&[lb]).is_some() {
        shapes.push(Shape::Text { x: plot[0] + 8.0, y: plot[1] + 16.0, text: legend.into(), color: pal.axis, size: FONT_PX - 1.0, anchor: Anchor::Start, rotate_deg: 0.0 });
    }
    Scene { width: input.width, height: input.height, background: pal.background, shapes, hits, plot, x, y }
}

fn axes(shapes: &mut Vec<Shape>, x: &LogScale, y: &LogScale, plot: [f64; 4], grid: Color, axis: Color, text: Color) {
    for t in x.ticks() {
        let px = x.to_px(t);
        shapes.push(Shape::Line { points: vec![(px, plot[1]), (px, plot[3])], color: grid, width: 1.0, dash: false });
        shapes.push(Shape::Text { x: px, y: plot[3] + 16.0, text: tick_label(t), color: text, size: FONT_PX, anchor: Anchor::Middle, rotate_deg: 0.0 });
    }
    for t in y.ticks() {
        let py = y.to_px(t);
        shapes.push(Shape::Line { points: vec![(plot[0], py), (plot[2], py)], color: grid, width: 1.0, dash: false });
        shapes.push(Shape::Text { x: plot[0] - 6.0, y: py + 4.0, text: tick_label(t / GIGA), color: text, size: FONT_PX, anchor: Anchor::End, rotate_deg: 0.0 });
    }
    let frame = vec![(plot[0], plot[1]), (plot[2], plot[1]), (plot[2], plot[3]), (plot[0], plot[3]), (plot[0], plot[1])];
    shapes.push(Shape::Line { points: frame, color: axis, width: 1.0, dash: false });
    shapes.push(Shape::Text {
        x: (plot[0] + plot[2]) / 2.0,
        y: plot[3] + 36.0,
        text: "Arithmetic intensity (FLOP/byte, DRAM)".into(),
        color: text,
        size: FONT_PX,
        anchor: Anchor::Middle,
        rotate_deg: 0.0,
    });
    shapes.push(Shape::Text {
        x: 16.0,
        y: (plot[1] + plot[3]) / 2.0,
        text: "Performance (GFLOP/s)".into(),
        color: text,
        size: FONT_PX,
        anchor: Anchor::Middle,
        rotate_deg: -90.0,
    });
}

/// The memory roof (slanted) up to the ridge, the compute roof (flat) after it, their labels
/// and the ridge mark, clipped to the plot area.
#[allow(clippy::too_many_arguments)]
fn roofs(
    shapes: &mut Vec<Shape>,
    placer: &mut Placer,
    x: &LogScale,
    y: &LogScale,
    plot: [f64; 4],
    (mem_name, bw): (&str, f64),
    (comp_name, peak): (&str, f64),
    (mem_color, comp_color, text_color): (Color, Color, Color),
) {
    let ridge = peak / bw;
    // Memory roof y = bw·x within both ranges.
    let x0 = x.min.max(y.min / bw);
    let x1 = ridge.min(x.max).min(y.max / bw);
    if x1 > x0 {
        shapes.push(Shape::Line { points: vec![(x.to_px(x0), y.to_px(bw * x0)), (x.to_px(x1), y.to_px(bw * x1))], color: mem_color, width: 2.0, dash: false });
        let label = format!("{mem_name} {}B/s", si(bw));
        let angle = (y.to_px(bw * x1) - y.to_px(bw * x0)).atan2(x.to_px(x1) - x.to_px(x0)).to_degrees();
        let candidates: Vec<(f64, f64)> = [0.12, 0.35, 0.6]
            .iter()
            .map(|t| {
                let xv = 10f64.powf(x0.log10() + t * (x1.log10() - x0.log10()));
                (x.to_px(xv), y.to_px(bw * xv) - 5.0)
            })
            .collect();
        let boxes: Vec<_> = candidates.iter().map(|&(px, py)| rotated(text_box(px, py, &label, FONT_PX, Anchor::Start), px, py, angle)).collect();
        if let Some(i) = placer.place(&boxes) {
            let (px, py) = candidates[i];
            shapes.push(Shape::Text { x: px, y: py, text: label, color: mem_color, size: FONT_PX, anchor: Anchor::Start, rotate_deg: angle });
        }
    }
    if (y.min..=y.max).contains(&peak) && ridge < x.max {
        let xs = ridge.max(x.min);
        let py = y.to_px(peak);
        shapes.push(Shape::Line { points: vec![(x.to_px(xs), py), (plot[2], py)], color: comp_color, width: 2.0, dash: false });
        let label = format!("{comp_name} {}FLOP/s", si(peak));
        let above = (plot[2] - 6.0, py - 6.0);
        let below = (plot[2] - 6.0, py + 16.0);
        let boxes = [text_box(above.0, above.1, &label, FONT_PX, Anchor::End), text_box(below.0, below.1, &label, FONT_PX, Anchor::End)];
        if let Some(i) = placer.place(&boxes) {
            let (px, py) = [above, below][i];
            shapes.push(Shape::Text { x: px, y: py, text: label, color: comp_color, size: FONT_PX, anchor: Anchor::End, rotate_deg: 0.0 });
        }
        if ridge > x.min {
            let rx = x.to_px(ridge);
            shapes.push(Shape::Line { points: vec![(rx, py), (rx, plot[3])], color: text_color, width: 1.0, dash: true });
            shapes.push(Shape::Circle { cx: rx, cy: py, r: 3.0, fill: Some(text_color), stroke: None, width: 0.0 });
            let label = format!("ridge {:.2} FLOP/B", ridge);
            let c = [(rx + 4.0, plot[3] - 6.0), (rx - 4.0, plot[3] - 6.0)];
            let boxes = [text_box(c[0].0, c[0].1, &label, FONT_PX - 1.0, Anchor::Start), text_box(c[1].0, c[1].1, &label, FONT_PX - 1.0, Anchor::End)];
            if let Some(i) = placer.place(&boxes) {
                let anchor = if i == 0 { Anchor::Start } else { Anchor::End };
                shapes.push(Shape::Text { x: c[i].0, y: c[i].1, text: label, color: text_color, size: FONT_PX - 1.0, anchor, rotate_deg: 0.0 });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{ChartInput, Theme};
    use crate::counters::{Counter, Counters};
    use crate::model::catalogue;

    fn ax_kernel() -> KernelProfile {
        // GPU course: AX, n = 500e6 doubles: n FLOPs, 16 n bytes, 0.010582 s on a V100.
        let mut c = Counters::default();
        c.set(Counter::Fp64Flops, 500e6);
        c.set(Counter::DramBytes, 8e9);
        c.set(Counter::TimeS, 0.010582);
        KernelProfile { name: "ax_kernel".into(), launches: 1, counters: c }
    }

    #[test]
    fn ax_dot_sits_under_the_hbm_roof_at_one_sixteenth() {
        let m = catalogue::v100();
        let kernels = [ax_kernel()];
        let input = ChartInput { mode: crate::chart::Mode::Classic, kernels: &kernels, machine: &m, compute: None, selected: Some(0), width: 800.0, height: 500.0, theme: Theme::Light, zoom: None };
        let s = build(&input);
        assert_eq!(s.hits.len(), 1);
        let h = s.hits[0];
        assert!((s.x.from_px(h.cx) - 0.0625).abs() < 1e-9);
        assert!((s.y.from_px(h.cy) / 1e9 - 47.25).abs() < 0.01, "{}", s.y.from_px(h.cy));
        assert_eq!(s.hit(h.cx + 1.0, h.cy), Some(0));
        assert_eq!(s.hit(h.cx + 50.0, h.cy), None);
        // The HBM roof passes above the dot: 828 GB/s × 1/16 = 51.75 GFLOP/s.
        let texts: Vec<_> = s.shapes.iter().filter_map(|sh| if let Shape::Text { text, .. } = sh { Some(text.as_str()) } else { None }).collect();
        assert!(texts.contains(&"HBM 828 GB/s"), "{texts:?}");
        assert!(texts.iter().any(|t| t.starts_with("FP64 7.83 TFLOP/s")), "{texts:?}");
        assert!(texts.iter().any(|t| t.starts_with("ridge 9.46")), "{texts:?}");
    }
}
