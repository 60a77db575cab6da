//! The classic roofline (GPU course slides, "Performance = min{Peak Floprate, AI × Bandwidth}";
//! Ding & Williams Eq. 1: "GFLOP/s ≤ min(Peak GFLOP/s, Peak GB/s × Arithmetic Intensity)").

use super::machine::{Ceiling, ComputeKind, Machine, MemoryLevel};

/// Attainable FLOP/s at arithmetic intensity `flops_per_byte` under one compute peak and one
/// bandwidth: min(peak, bandwidth × AI) (GPU course slides; Ding & Williams Eq. 1).
pub fn attainable_flops_per_s(flops_per_byte: f64, peak_flops_per_s: f64, bytes_per_s: f64) -> f64 {
    peak_flops_per_s.min(bytes_per_s * flops_per_byte)
}

/// The ridge (balance) point: the intensity at which the memory roof meets the compute roof,
/// FLOP/byte. The course's "optimal intensity = theoretical peak floprate / theoretical memory
/// bandwidth"; the Nsight Compute post's "machine balance point".
pub fn ridge_flops_per_byte(peak_flops_per_s: f64, bytes_per_s: f64) -> f64 {
    peak_flops_per_s / bytes_per_s
}

/// Arithmetic intensity, FLOP/byte (GPU course: "number of floating-point operations [Flop] /
/// number of bytes moved [Byte]"). `None` unless both are measured and bytes > 0.
pub fn intensity(flops: Option<f64>, bytes: Option<f64>) -> Option<f64> {
    let (f, b) = (flops?, bytes?);
    (b > 0.0 && f.is_finite()).then(|| f / b)
}

/// A ridge of one compute roof against one memory level.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ridge {
    pub compute: String,
    pub memory: String,
    pub flops_per_byte: f64,
}

/// The roofs of a machine: the first ceiling of each vector kind and of each matrix data
/// type (lower ceilings such as no-FMA are drawn but are not roofs).
pub fn compute_roofs(m: &Machine) -> Vec<&Ceiling> {
    let mut roofs: Vec<&Ceiling> = Vec::new();
    for c in &m.compute {
        if !roofs.iter().any(|r| same_roof(r, c)) {
            roofs.push(c);
        }
    }
    roofs
}

/// Whether two ceilings are levels of one roof: the same vector kind, or matrix ceilings of
/// the same data type.
pub fn same_roof(a: &Ceiling, b: &Ceiling) -> bool {
    a.kind == b.kind && (a.kind != ComputeKind::Tensor || a.data_type == b.data_type)
}

/// Every compute roof's ridge against every memory level.
pub fn ridges(m: &Machine) -> Vec<Ridge> {
    let mut out = Vec::new();
    for c in compute_roofs(m) {
        for l in &m.memory {
            out.push(ridge(c, l));
        }
    }
    out
}

fn ridge(c: &Ceiling, l: &MemoryLevel) -> Ridge {
    Ridge { compute: c.name.clone(), memory: l.name.clone(), flops_per_byte: ridge_flops_per_byte(c.flops_per_s, l.bytes_per_s) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ax_on_v100_is_memory_bound() {
        // GPU course slides: AX does 1 FLOP per 16 bytes; at 756 GB/s that is ~47 GFLOP/s.
        let ai = 1.0 / 16.0;
        let gflops = attainable_flops_per_s(ai, 7000e9, 756e9) / 1e9;
        assert!((gflops - 47.25).abs() < 1e-9, "{gflops}");
    }

    #[test]
    fn v100_fp64_ridge_from_the_course() {
        let r = ridge_flops_per_byte(7000e9, 900e9);
        assert!((r - 7.78).abs() < 0.01, "{r}");
    }

    #[test]
    fn intensity_needs_both_and_positive_bytes() {
        assert_eq!(intensity(Some(1.0), Some(16.0)), Some(1.0 / 16.0));
        assert_eq!(intensity(Some(1.0), Some(0.0)), None);
        assert_eq!(intensity(None, Some(1.0)), None);
    }

    #[test]
    fn roofs_are_the_first_of_each_kind() {
        let m = super::super::catalogue::v100();
        let names: Vec<&str> = compute_roofs(&m).iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["FP64", "FP32", "FP16", "FP16 matrix", "INT32"]);
        let m = super::super::catalogue::h100();
        let names: Vec<&str> = compute_roofs(&m).iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["FP64", "FP32", "FP16", "FP16 matrix", "BF16 matrix", "TF32 matrix", "FP8 matrix", "FP64 matrix", "INT8 matrix", "INT32"]);
    }
}
