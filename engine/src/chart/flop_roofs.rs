//! The ceilings of the FLOP charts (classic and hierarchical): which compute roofs to draw,
//! bandwidth roofs up to the top compute roof, compute roofs from where they meet the
//! highest-bandwidth roof, and ridge points.
//!
//! This is the convention of the NERSC hierarchical roofline plots (Yang et al., roofline use
//! cases: several compute ceilings, e.g. "TC peak and FP32 FMA peak", over L1/L2/HBM roofs)
//! and of the Nsight Compute charts ("horizontal compute-bound ceilings", "machine balance
//! point").

use super::frame::{Builder, FONT_PX};
use super::roofs::{giga4, Style};
use super::scene::Shape;
use super::ChartInput;
use crate::model::classic::{compute_roofs, ridge_flops_per_byte};
use crate::model::{Ceiling, ComputeKind, MemoryLevel};
use crate::domain::profile::{KernelProfile, Precision};
use crate::units::si;

/// FLOPs per kind in the data: FP64, FP32, FP16 vector FLOPs and tensor FLOPs (tensor
/// instructions × FLOPs per instruction where only those were counted). One pass over the
/// kernels (each a few hundred bytes; 10 000 of them are read once, not four times).
pub fn flops_by_kind(kernels: &[KernelProfile], flops_per_tensor_inst: Option<f64>) -> [(ComputeKind, f64); 4] {
    // -0.0 is where `Iterator::sum` starts a float sum; kernels in order, as such a sum adds.
    let mut sums = [-0.0f64; 4];
    for k in kernels {
        let values = [k.flops(Precision::Fp64), k.flops(Precision::Fp32), k.flops(Precision::Fp16), k.tensor_flops(flops_per_tensor_inst)];
        for (sum, v) in sums.iter_mut().zip(values) {
            if let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) {
                *sum += v;
            }
        }
    }
    [(ComputeKind::Fp64, sums[0]), (ComputeKind::Fp32, sums[1]), (ComputeKind::Fp16, sums[2]), (ComputeKind::Tensor, sums[3])]
}

/// The kind with the most FLOPs in sums from [`flops_by_kind`]; FP64 when there are none.
fn dominant_of(used: &[(ComputeKind, f64); 4]) -> ComputeKind {
    used.iter().filter(|c| c.1 > 0.0).max_by(|a, b| a.1.total_cmp(&b.1)).map_or(ComputeKind::Fp64, |c| c.0)
}

/// The compute ceiling that matters for these kernels: the kind with the most FLOPs.
pub fn dominant_kind(kernels: &[KernelProfile], flops_per_tensor_inst: Option<f64>) -> ComputeKind {
    dominant_of(&flops_by_kind(kernels, flops_per_tensor_inst))
}

/// The compute roofs to draw, in the machine's order, and the one whose ridges are marked:
/// every kind the data has FLOPs for (so tensor ceilings appear when the data has tensor
/// FLOPs) and the chosen (`input.compute`) or dominant kind, less the hidden kinds — never
/// the ridge kind. Falls back to the machine's first ceiling when it has none of these kinds.
pub fn shown_compute<'m>(input: &ChartInput<'m>) -> (Option<&'m Ceiling>, Vec<&'m Ceiling>) {
    let m = input.machine;
    let used = flops_by_kind(input.kernels, m.flops_per_tensor_inst);
    let kind = input.compute.unwrap_or_else(|| dominant_of(&used));
    let ridge = m.compute_ceiling(kind).or_else(|| m.compute.first());
    let wanted = |c: &Ceiling| Some(c) == ridge || (used.iter().any(|u| u.0 == c.kind && u.1 > 0.0) && !input.hidden_compute.contains(&c.kind));
    let mut roofs: Vec<&Ceiling> = compute_roofs(m).into_iter().filter(|c| c.flops_per_s.is_finite() && c.flops_per_s > 0.0 && wanted(c)).collect();
    if let Some(r) = ridge.filter(|r| !roofs.contains(r) && r.flops_per_s > 0.0) {
        roofs.push(r);
    }
    (ridge, roofs)
}

/// Data extent the ceilings need: ridge intensities (of the ridge roof with every level, and
/// of the top roof with the slowest level, where the last bandwidth roof ends) and peaks.
pub fn extent(memory: &[&MemoryLevel], compute: &[&Ceiling], ridge: Option<&Ceiling>) -> (Vec<f64>, Vec<f64>) {
    let top = compute.iter().map(|c| c.flops_per_s).fold(0.0, f64::max);
    let slowest = memory.iter().map(|l| l.bytes_per_s).filter(|b| *b > 0.0).fold(f64::MAX, f64::min);
    let mut xs: Vec<f64> = memory.iter().filter_map(|l| ridge.map(|r| ridge_flops_per_byte(r.flops_per_s, l.bytes_per_s))).collect();
    if top > 0.0 && slowest < f64::MAX {
        xs.push(top / slowest);
    }
    (xs, compute.iter().map(|c| c.flops_per_s).collect())
}

/// `HBM 828 GB/s`; levels of one bandwidth share a roof: `L1 / Shared 14000 GB/s`.
pub fn memory_label(ls: &[&MemoryLevel]) -> String {
    let names: Vec<&str> = ls.iter().map(|l| l.name.as_str()).collect();
    format!("{} {} GB/s", names.join(" / "), giga4(ls.first().map_or(0.0, |l| l.bytes_per_s)))
}

/// Levels grouped by equal bandwidth (V100 L1 and shared memory are one array), in order:
/// one roof each, so coinciding roofs are not drawn and labelled twice.
fn by_bandwidth<'a>(memory: &[&'a MemoryLevel]) -> Vec<Vec<&'a MemoryLevel>> {
    let mut groups: Vec<Vec<&MemoryLevel>> = Vec::new();
    for l in memory {
        match groups.iter_mut().find(|g| g[0].bytes_per_s == l.bytes_per_s) {
            Some(g) => g.push(l),
            None => groups.push(vec![l]),
        }
    }
    groups
}

/// Draws the bandwidth roofs, the compute roofs and the ridge marks of `ridge` against each
/// level. `classic`: one memory roof in the memory colour (its dots are coloured by kernel),
/// and a dashed line from the ridge down to the axis with "ridge N FLOP/B" (GPU course
/// slides' "optimal intensity"); otherwise each roof and ridge in its level's colour, as
/// the level's dots.
pub fn draw(b: &mut Builder, memory: &[&MemoryLevel], compute: &[&Ceiling], ridge: Option<&Ceiling>, classic: bool) {
    let drop_line = classic;
    let top = compute.iter().map(|c| c.flops_per_s).fold(0.0, f64::max);
    let fastest = memory.iter().map(|l| l.bytes_per_s).filter(|v| v.is_finite() && *v > 0.0).fold(0.0, f64::max);
    let groups = by_bandwidth(memory);
    for g in &groups {
        let l = g[0];
        let end = if top > 0.0 { top / l.bytes_per_s } else { f64::MAX };
        let color = if classic { b.pal.memory } else { b.pal.level(l.level) };
        b.slanted_roof(l.bytes_per_s, end, Style::solid(color), &memory_label(g));
    }
    let levels: Vec<f64> = compute.iter().map(|c| c.flops_per_s).collect();
    for c in compute {
        let start = if fastest > 0.0 { c.flops_per_s / fastest } else { 0.0 };
        let style = if Some(*c) == ridge { Style::solid(b.pal.compute) } else { Style::thin(b.pal.compute) };
        b.flat_roof(c.flops_per_s, start, style, &format!("{} {}FLOP/s", c.name, si(c.flops_per_s)), &levels);
    }
    let Some(r) = ridge else { return };
    for l in groups.iter().map(|g| g[0]) {
        let at = ridge_flops_per_byte(r.flops_per_s, l.bytes_per_s);
        if drop_line {
            let Some((rx, ry)) = b.ridge_mark(at, r.flops_per_s, b.pal.text, None) else { continue };
            b.under.push(Shape::Line { points: vec![(rx, ry), (rx, b.plot[3])], color: b.pal.text, width: 1.0, dash: true });
            let text = format!("ridge {at:.2} FLOP/B");
            let (s, y) = (FONT_PX - 1.0, b.plot[3] - 6.0);
            let (c, anchor) = (b.pal.text, super::Anchor::Start);
            b.label(&[(rx + 4.0, y, anchor, 0.0), (rx - 4.0, y, super::Anchor::End, 0.0)], &text, c, s);
        } else {
            let color = b.pal.level(l.level);
            b.ridge_mark(at, r.flops_per_s, color, Some(&format!("{at:.2}")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;

    /// The four sums as they were written before the single pass: one `sum` per kind.
    fn per_kind(kernels: &[KernelProfile], per_inst: Option<f64>) -> [f64; 4] {
        let sum = |f: &dyn Fn(&KernelProfile) -> Option<f64>| kernels.iter().filter_map(f).filter(|v| v.is_finite() && *v > 0.0).sum::<f64>();
        [sum(&|k| k.flops(Precision::Fp64)), sum(&|k| k.flops(Precision::Fp32)), sum(&|k| k.flops(Precision::Fp16)), sum(&|k| k.tensor_flops(per_inst))]
    }

    #[test]
    fn one_pass_sums_equal_per_kind_sums() {
        let kernels: Vec<KernelProfile> = (0..500)
            .map(|i| {
                let v = 1.0 + (i as f64 * 0.37).sin().abs() * 1e9 / (1 + i % 11) as f64;
                let mut pairs = vec![(Counter::Fp32Fma, v), (Counter::Fp64Add, v * 0.3)];
                if i % 3 == 0 {
                    pairs.push((Counter::TensorInst, v / 7.0));
                }
                if i % 5 == 0 {
                    pairs.push((Counter::Fp64Flops, if i % 10 == 0 { -1.0 } else { f64::NAN }));
                }
                KernelProfile::from_counters("k", &pairs)
            })
            .collect();
        let got = flops_by_kind(&kernels, Some(512.0));
        let want = per_kind(&kernels, Some(512.0));
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.1.to_bits(), w.to_bits());
        }
        assert!(got[1].1 > 1e9 && got[0].1 > 0.0 && got[3].1 > 0.0, "{got:?}");
        assert_eq!(flops_by_kind(&[], None).map(|g| g.1.to_bits()), per_kind(&[], None).map(f64::to_bits), "empty: -0.0 as `sum`");
        assert_eq!(dominant_kind(&kernels, Some(512.0)), ComputeKind::Tensor);
    }
}
