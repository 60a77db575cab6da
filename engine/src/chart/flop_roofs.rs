//! The ceilings of the FLOP charts (classic and hierarchical): which compute roofs to draw,
//! bandwidth roofs up to the top compute roof, compute roofs from where they meet the
//! highest-bandwidth roof, and ridge points.
//!
//! This is the convention of the NERSC hierarchical roofline plots (Yang et al., roofline use
//! cases: several compute ceilings, e.g. "TC peak and FP32 FMA peak", over L1/L2/HBM roofs)
//! and of the Nsight Compute charts ("horizontal compute-bound ceilings", "machine balance
//! point").

use super::binding::FlopBinding;
use super::frame::{Builder, FONT_PX};
use super::roofs::{giga4, Style};
use super::scene::Shape;
use super::ChartInput;
use crate::domain::profile::{KernelProfile, Precision};
use crate::domain::DataType;
use crate::model::classic::{compute_roofs, ridge_flops_per_byte, same_roof};
use crate::model::{Ceiling, ComputeKind, Machine, MemoryLevel};
use crate::units::si;

/// FLOPs per roof in the data: FP64, FP32, FP16 vector FLOPs and matrix FLOPs per data type
/// (matrix FLOPs of no known type — reported without one, or tensor instructions × the
/// machine's FLOPs per instruction — go to the machine's FP16 matrix roof where it has one,
/// as Volta's HMMA.884 works on FP16, else to its fastest matrix roof). One pass over the
/// kernels (each a few hundred bytes; 10 000 of them are read once).
pub fn flops_by_roof<'m>(kernels: &[KernelProfile], m: &'m Machine) -> Vec<(&'m Ceiling, f64)> {
    FlopSums::of(kernels, m.flops_per_tensor_inst).by_roof(m)
}

/// The kernels' FLOPs per precision and matrix data type, summed: the pass over the kernels
/// that [`flops_by_roof`] makes, kept apart from the machine's roofs so a chart cache
/// ([`super::cache`]) sums once per dataset and machine, not on every zoom (a tenth of the
/// hierarchical scene of 10,000 kernels: docs/PERFORMANCE.md).
#[derive(Clone, Debug, PartialEq)]
pub struct FlopSums {
    /// FP64, FP32, FP16 vector FLOPs.
    vector: [f64; 3],
    /// Matrix FLOPs per [`DataType::ALL`].
    matrix: [f64; DataType::ALL.len()],
    /// Matrix FLOPs of no known type.
    untyped: f64,
}

impl FlopSums {
    /// The sums over `kernels`, tensor instructions counted at `flops_per_tensor_inst`.
    pub fn of(kernels: &[KernelProfile], flops_per_tensor_inst: Option<f64>) -> FlopSums {
        // -0.0 is where `Iterator::sum` starts a float sum; kernels in order, as such a sum adds.
        let mut vsum = [-0.0f64; 3];
        let mut msum = [-0.0f64; DataType::ALL.len()];
        let mut usum = -0.0f64;
        let pos = |v: Option<f64>| v.filter(|v| v.is_finite() && *v > 0.0);
        for k in kernels {
            for (sum, p) in vsum.iter_mut().zip([Precision::Fp64, Precision::Fp32, Precision::Fp16]) {
                if let Some(v) = pos(k.flops(p)) {
                    *sum += v;
                }
            }
            if k.has_typed_matrix_work() {
                for (sum, t) in msum.iter_mut().zip(DataType::ALL) {
                    if let Some(v) = pos(k.matrix_flops(t)) {
                        *sum += v;
                    }
                }
            } else if let Some(v) = pos(k.tensor_flops(flops_per_tensor_inst)) {
                usum += v;
            }
        }
        FlopSums { vector: vsum, matrix: msum, untyped: usum }
    }

    /// The sums on `m`'s roofs (see [`flops_by_roof`]).
    pub fn by_roof<'m>(&self, m: &'m Machine) -> Vec<(&'m Ceiling, f64)> {
        let vector = [ComputeKind::Fp64, ComputeKind::Fp32, ComputeKind::Fp16].map(|k| m.compute_ceiling(k));
        let matrix = DataType::ALL.map(|t| m.matrix_ceiling(t));
        let untyped = m.matrix_ceiling(DataType::Fp16).or_else(|| m.fastest_matrix_ceiling());
        let mut out: Vec<(&'m Ceiling, f64)> = Vec::new();
        let mut add = |c: Option<&'m Ceiling>, v: f64| {
            if let Some(c) = c.filter(|_| v > 0.0) {
                match out.iter_mut().find(|(o, _)| same_roof(o, c)) {
                    Some(slot) => slot.1 += v,
                    None => out.push((c, v)),
                }
            }
        };
        for (c, &v) in vector.into_iter().zip(&self.vector) {
            add(c, v);
        }
        for (c, &v) in matrix.into_iter().zip(&self.matrix) {
            add(c, v);
        }
        add(untyped, self.untyped);
        out
    }
}

/// The roof with the most FLOPs in `used`; `None` when there are none.
fn dominant_of<'m>(used: &[(&'m Ceiling, f64)]) -> Option<&'m Ceiling> {
    used.iter().filter(|c| c.1 > 0.0).max_by(|a, b| a.1.total_cmp(&b.1)).map(|c| c.0)
}

/// The compute kind that matters for these kernels: the kind of the roof with the most FLOPs
/// (FP64 when there are none).
pub fn dominant_kind(kernels: &[KernelProfile], m: &Machine) -> ComputeKind {
    dominant_of(&flops_by_roof(kernels, m)).map_or(ComputeKind::Fp64, |c| c.kind)
}

/// The compute roofs to draw, in the machine's order, and the one whose ridges are marked.
/// Nsight Compute's rule: the roofs of the pipes and data types the kernels use (an FP64 DMMA
/// kernel gets the FP64 matrix roof, a BF16 GEMM the BF16 one), and the chosen
/// (`input.compute`) or dominant roof, less the hidden kinds — never the ridge roof; every
/// roof of the machine when `input.all_roofs` is set. Falls back to the machine's first
/// ceiling when it has none of these.
pub fn shown_compute<'m>(input: &ChartInput<'m>) -> (Option<&'m Ceiling>, Vec<&'m Ceiling>) {
    let m = input.machine;
    let used = match input.cache() {
        Some(c) => c.flops.by_roof(m),
        None => flops_by_roof(input.kernels, m),
    };
    let ridge = match input.compute {
        // A chosen matrix kind: the matrix roof of the type with most FLOPs, else the first.
        Some(ComputeKind::Tensor) => used.iter().filter(|(c, _)| c.kind == ComputeKind::Tensor).max_by(|a, b| a.1.total_cmp(&b.1)).map(|(c, _)| *c).or_else(|| m.compute_ceiling(ComputeKind::Tensor)),
        Some(kind) => m.compute_ceiling(kind),
        None => dominant_of(&used).or_else(|| m.compute_ceiling(ComputeKind::Fp64)),
    }
    .or_else(|| m.compute.first());
    let wanted = |c: &Ceiling| {
        Some(c) == ridge || (!input.hidden_compute.contains(&c.kind) && (input.all_roofs || used.iter().any(|(u, v)| *v > 0.0 && same_roof(u, c))))
    };
    let mut roofs: Vec<&Ceiling> = compute_roofs(m).into_iter().filter(|c| c.flops_per_s.is_finite() && c.flops_per_s > 0.0 && wanted(c)).collect();
    if let Some(r) = ridge.filter(|r| !roofs.contains(r) && r.flops_per_s > 0.0) {
        roofs.push(r);
    }
    (ridge, roofs)
}

/// `compute` with the binding roof's ceiling added where the roof filter left it out (issue
/// 43: the roof that binds the selected kernel is drawn whatever "all roofs", the hidden
/// kinds or the used roofs say), and the height of a roof of its own, for the axis range.
pub fn with_binding<'m>(mut compute: Vec<&'m Ceiling>, binding: Option<&FlopBinding<'m>>) -> (Vec<&'m Ceiling>, Option<f64>) {
    match binding {
        Some(FlopBinding::Ceiling(c)) => {
            if !compute.iter().any(|s| same_roof(s, c) && s.flops_per_s == c.flops_per_s) {
                compute.push(c);
            }
            (compute, None)
        }
        Some(FlopBinding::Flat { flops_per_s, .. }) => (compute, Some(*flops_per_s)),
        _ => (compute, None),
    }
}

/// The machine's roofs the kernels do not use (the ones the "all roofs" toggle adds).
pub fn unused_roofs<'m>(kernels: &[KernelProfile], m: &'m Machine) -> Vec<&'m Ceiling> {
    let used = flops_by_roof(kernels, m);
    compute_roofs(m).into_iter().filter(|c| !used.iter().any(|(u, _)| same_roof(u, c))).collect()
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

/// Compute roofs grouped by equal rate, in order (the H100's FP16 and BF16 matrix roofs are
/// both 1.07 PFLOP/s, its FP32 and FP64 matrix ones 66.9 TFLOP/s): one line and one label
/// each, as [`by_bandwidth`] does for memory, so "all roofs" does not stack two labels on one
/// line.
fn by_rate<'a>(compute: &[&'a Ceiling]) -> Vec<Vec<&'a Ceiling>> {
    let mut groups: Vec<Vec<&Ceiling>> = Vec::new();
    for c in compute {
        match groups.iter_mut().find(|g| g[0].flops_per_s == c.flops_per_s) {
            Some(g) => g.push(c),
            None => groups.push(vec![c]),
        }
    }
    groups
}

/// The names of roofs of one rate: "FP16 / BF16 matrix", "FP32 / FP64 matrix" (" matrix"
/// said once where the next name says it too).
pub fn compute_names(g: &[&Ceiling]) -> String {
    let mut out = String::new();
    for (i, c) in g.iter().enumerate() {
        let next_matrix = g.get(i + 1).is_some_and(|n| n.name.ends_with(" matrix"));
        out.push_str(if i > 0 { " / " } else { "" });
        out.push_str(c.name.strip_suffix(" matrix").filter(|_| next_matrix).unwrap_or(&c.name));
    }
    out
}

/// Draws the bandwidth roofs, the compute roofs and the ridge marks of `ridge` against each
/// level. `classic`: one memory roof in the memory colour (its dots are coloured by kernel),
/// and a dashed line from the ridge down to the axis with "ridge N FLOP/B" (GPU course
/// slides' "optimal intensity"); otherwise each roof and ridge in its level's colour, as
/// the level's dots.
///
/// `binding`: the selected kernel's binding roof ([`super::binding`]), marked in the scene's
/// roofs; a roof of its own (several pipes, issue, a level without a roof here) is drawn
/// dashed after the compute roofs, a note where it has none.
pub fn draw(b: &mut Builder, memory: &[&MemoryLevel], compute: &[&Ceiling], ridge: Option<&Ceiling>, classic: bool, binding: Option<&FlopBinding>) {
    let drop_line = classic;
    let top = compute.iter().map(|c| c.flops_per_s).fold(0.0, f64::max);
    let fastest = memory.iter().map(|l| l.bytes_per_s).filter(|v| v.is_finite() && *v > 0.0).fold(0.0, f64::max);
    let groups = by_bandwidth(memory);
    let mut level_marked = false;
    for g in &groups {
        let l = g[0];
        let end = if top > 0.0 { top / l.bytes_per_s } else { f64::MAX };
        let color = if classic { b.pal.memory } else { b.pal.level(l.level) };
        let drawn = b.slanted_roof(l.bytes_per_s, end, Style::solid(color), &memory_label(g)).is_some();
        // The first roof of the level: the one a bound is named after (an Advisor machine
        // lists GTI and DRAM both at the DRAM level).
        let bound = matches!(binding, Some(FlopBinding::Level(bl)) if g.iter().any(|l| l.level == *bl)) && !level_marked;
        level_marked |= bound;
        b.mark_binding(drawn && bound);
    }
    // The binding roof's own line too: no compute roof's label goes across it.
    let own = match binding {
        Some(FlopBinding::Flat { flops_per_s, .. }) => Some(*flops_per_s),
        _ => None,
    };
    let levels: Vec<f64> = compute.iter().map(|c| c.flops_per_s).chain(own).collect();
    for g in by_rate(compute) {
        let c = g[0];
        let start = if fastest > 0.0 { c.flops_per_s / fastest } else { 0.0 };
        let style = if g.iter().any(|c| Some(*c) == ridge) { Style::solid(b.pal.compute) } else { Style::thin(b.pal.compute) };
        let drawn = b.flat_roof(c.flops_per_s, start, style, &format!("{} {}FLOP/s", compute_names(&g), si(c.flops_per_s)), &levels);
        b.mark_binding(drawn && matches!(binding, Some(FlopBinding::Ceiling(bc)) if g.iter().any(|c| same_roof(bc, c) && bc.flops_per_s == c.flops_per_s)));
    }
    match binding {
        Some(FlopBinding::Flat { name, approx, flops_per_s: rate }) => {
            let start = if fastest > 0.0 { rate / fastest } else { 0.0 };
            let label = format!("{name} {}{}FLOP/s", if *approx { "≈ " } else { "" }, si(*rate));
            let drawn = b.flat_roof(*rate, start, Style::dashed(b.pal.compute), &label, &levels);
            b.mark_binding(drawn);
        }
        Some(FlopBinding::Note(note)) => {
            let (x, y, color) = (b.plot[0] + 8.0, b.plot[1] + 16.0, b.pal.axis);
            b.label(&[(x, y, super::Anchor::Start, 0.0), (b.plot[2] - 8.0, y, super::Anchor::End, 0.0)], note, color, super::frame::LEGEND_PX);
        }
        _ => {}
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
        // The V100's roofs: FP64, FP32 and the FP16 matrix one (512 FLOPs per HMMA); no FP16
        // vector FLOPs in the data, so no FP16 roof.
        let m = crate::model::catalogue::v100();
        let got = flops_by_roof(&kernels, &m);
        let want = per_kind(&kernels, Some(512.0));
        let names: Vec<&str> = got.iter().map(|(c, _)| c.name.as_str()).collect();
        assert_eq!(names, ["FP64", "FP32", "FP16 matrix"]);
        for ((_, g), w) in got.iter().zip([want[0], want[1], want[3]]) {
            assert_eq!(g.to_bits(), w.to_bits());
        }
        assert!(flops_by_roof(&[], &m).is_empty());
        assert_eq!(dominant_kind(&kernels, &m), ComputeKind::Tensor);
    }

    #[test]
    fn the_roofs_of_the_data_types_used_and_all_on_request() {
        // A BF16 GEMM and an FP32 kernel on an H100: its FP32 and BF16 matrix roofs, not the
        // FP8, TF32 or FP64 matrix ones; the BF16 roof has the most FLOPs and marks the ridges.
        let m = crate::model::catalogue::h100();
        let ks = [
            KernelProfile::from_counters("gemm", &[(Counter::MatrixBf16, 1e12), (Counter::TimeS, 1e-3)]),
            KernelProfile::from_counters("axpy", &[(Counter::Fp32Fma, 1e6), (Counter::TimeS, 1e-3)]),
        ];
        let input = ChartInput::new(&ks, &m, 800.0, 500.0);
        let (ridge, roofs) = shown_compute(&input);
        assert_eq!(ridge.map(|r| r.name.as_str()), Some("BF16 matrix"));
        let names: Vec<&str> = roofs.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["FP32", "BF16 matrix"]);
        // The toggle adds the rest: every roof of the machine.
        let input = ChartInput::new(&ks, &m, 800.0, 500.0).with_all_roofs(true);
        assert_eq!(shown_compute(&input).1.len(), compute_roofs(&m).len());
        let unused: Vec<&str> = unused_roofs(&ks, &m).iter().map(|c| c.name.as_str()).collect();
        assert!(unused.contains(&"FP8 matrix") && !unused.contains(&"BF16 matrix"), "{unused:?}");
    }
}
