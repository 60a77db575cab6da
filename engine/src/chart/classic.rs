//! The classic roofline chart: one memory roof (DRAM/HBM), a dot per kernel at (FLOPs / DRAM
//! bytes, FLOPs / time) coloured as its legend says ([`super::colors`]: by precision unless
//! asked otherwise). Data with L1 bytes and no DRAM bytes (Intel Advisor's surveys) is drawn
//! as Advisor's cache-aware roofline instead: dots at FLOPs / L1 bytes against every level's
//! roof ([`crate::model::point::classic_level`]). GPU course slides: "Performance = min{Peak
//! Floprate, AI × Bandwidth}", with the ridge ("optimal intensity") marked. Compute roofs:
//! the dominant precision's, plus every precision and the tensor ceiling the data has FLOPs
//! for (NERSC conv2d charts show the Tensor Core peak next to the FP32 one). Kernels without
//! FLOPs are in the bandwidth strip under the plot ([`super::strip`]); the longest-running
//! kernels are named ([`super::kernel_labels`]).

use super::binding::flop_binding;
use super::colors::coloring;
use super::dots::{radius_px, Dot};
use super::flop_roofs::{self, shown_compute};
use super::frame::{auto_range, Axes, Builder, LegendItem};
use super::kernel_labels::{names_of, Anchored};
use super::scene::{Marker, Scene};
use super::strip::{strip_dots, StripRoof};
use super::ChartInput;
use crate::model::point::{classic_level, classic_points};
use crate::model::Level;
use crate::units::GIGA;

pub use super::flop_roofs::dominant_kind;

pub fn build(input: &ChartInput) -> Scene {
    let m = input.machine;
    let points = classic_points(input.kernels, m);
    let (ridge, compute) = shown_compute(input);
    let carm = classic_level(input.kernels, m) == Level::L1;
    // DRAM's roof (else the last level's): the chart's memory roof, and the bandwidth strip's
    // even on a cache-aware chart, which draws every level's roof.
    let dram_roof: Vec<_> = m.memory_level(Level::Dram).or_else(|| m.memory.last()).into_iter().collect();
    let memory: Vec<_> = if carm { m.memory.iter().collect() } else { dram_roof.clone() };
    let levels: Vec<Level> = memory.iter().map(|l| l.level).collect();
    let binding = flop_binding(input.kernels, input.selected, m, &levels);
    let (compute, own_roof) = flop_roofs::with_binding(compute, binding.as_ref());
    let (roof_xs, mut roof_ys) = flop_roofs::extent(&memory, &compute, ridge);
    roof_ys.extend(own_roof);
    let peak = roof_ys.iter().copied().fold(0.0, f64::max);
    let (run_xs, run_ys) = input.runs_extent();
    let x_auto = auto_range(points.iter().map(|p| p.flops_per_byte).chain(roof_xs).chain(run_xs), 0.3);
    let y_auto = auto_range(points.iter().map(|p| p.flops_per_s).chain(roof_ys).chain([peak / 1e3]).chain(run_ys), 0.15);
    let names = names_of(input);
    let strip = strip_dots(input, &[Level::Dram]);
    let mut drawn = vec![false; input.kernels.len()];
    for k in points.iter().map(|p| p.kernel).chain(strip.iter().map(|d| d.kernel)) {
        drawn[k] = true;
    }
    let colors = coloring(input, &names, &drawn);
    let legend: Vec<LegendItem> = colors.legend.iter().cloned().chain([LegendItem::sizes()]).chain(input.runs_legend()).collect();
    let mut b = Builder::with_strip(input, x_auto, y_auto, &legend, !strip.is_empty());
    b.reserve_dots(points.len(), 0);

    let shares = input.time_shares();
    let mut anchors: Vec<Anchored> = Vec::new();
    for p in &points {
        let color = colors.colors[p.kernel];
        let r = radius_px(shares.get(p.kernel).copied().unwrap_or(0.0));
        let selected = input.selected == Some(p.kernel);
        if let Some(c) = b.dot(Dot { kernel: p.kernel, x: p.flops_per_byte, y: p.flops_per_s, r, fill: Some(color), stroke: color, level: Some(p.level), marker: Marker::Level, selected }) {
            anchors.push((p.kernel, c, r));
        }
    }
    input.draw_runs(&mut b, Some(&colors.colors));
    let dram = dram_roof.first().map_or("DRAM", |l| l.name.as_str());
    let x_title = if carm { "Arithmetic intensity (FLOP/byte, cache-aware: bytes at L1)".to_string() } else { format!("Arithmetic intensity (FLOP/byte, {dram})") };
    b.axes(&Axes { x_title: &x_title, y_title: "Performance (GFLOP/s)", x_div: 1.0, y_div: GIGA });
    if !strip.is_empty() {
        let kernels = strip.len();
        let title = format!("{kernels} kernel{} without FLOPs: {dram} bandwidth attained (GB/s)", if kernels == 1 { "" } else { "s" });
        let roofs: Vec<StripRoof> = dram_roof.iter().map(|l| StripRoof { name: l.name.clone(), bytes_per_s: l.bytes_per_s, color: b.pal.memory }).collect();
        b.strip(input, &strip, &roofs, (&title, &format!("No FLOPs: {dram} GB/s")), |d| colors.colors[d.kernel]);
    }
    if input.show_ceilings {
        // A cache-aware chart draws each level's roof in its colour (Advisor's CARM view).
        flop_roofs::draw(&mut b, &memory, &compute, ridge, !carm, binding.as_ref());
    }
    b.kernel_labels(input, &anchors, &names);
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{ChartInput, Shape};
    use crate::domain::counters::{Counter, Counters};
    use crate::model::catalogue;
    use crate::domain::profile::KernelProfile;

    fn ax_kernel() -> KernelProfile {
        // GPU course: AX, n = 500e6 doubles: n FLOPs, 16 n bytes, 0.010582 s on a V100.
        let mut c = Counters::default();
        c.set(Counter::Fp64Flops, 500e6);
        c.set(Counter::DramBytes, 8e9);
        c.set(Counter::TimeS, 0.010582);
        KernelProfile { name: "ax_kernel".into(), launches: 1, counters: c }
    }

    #[test]
    fn an_advisor_survey_is_drawn_cache_aware_against_every_level() {
        // A loop with CARM (L1) bytes only: 2e9 FLOPs over 1e9 L1 bytes in 1 s = 2 FLOP/byte at
        // 2 GFLOP/s, on a Xeon Gold 6132 with L1, L2, L3 and DRAM roofs: each is drawn.
        let k = KernelProfile::from_counters("loop", &[(Counter::OtherFlops, 2e9), (Counter::L1Bytes, 1e9), (Counter::TimeS, 1.0)]);
        let m = catalogue::xeon_gold_6132();
        let kernels = [k];
        let s = build(&ChartInput::new(&kernels, &m, 800.0, 500.0));
        assert_eq!(s.hits.len(), 1);
        assert!((s.x.from_px(s.hits[0].cx) - 2.0).abs() < 1e-9);
        let texts: Vec<&str> = s.shapes.iter().filter_map(|sh| if let Shape::Text { text, .. } = sh { Some(text.as_str()) } else { None }).collect();
        for level in &m.memory {
            assert!(texts.iter().any(|t| t.starts_with(level.name.as_str()) && t.ends_with("GB/s")), "{} roof in {texts:?}", level.name);
        }
        assert!(texts.contains(&"Arithmetic intensity (FLOP/byte, cache-aware: bytes at L1)"));
    }

    #[test]
    fn ax_dot_sits_under_the_hbm_roof_at_one_sixteenth() {
        let m = catalogue::v100();
        let kernels = [ax_kernel()];
        let input = ChartInput::new(&kernels, &m, 800.0, 500.0).with_selected(Some(0));
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
