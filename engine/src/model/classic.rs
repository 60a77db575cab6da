//! The classic roofline (GPU course slides, "Performance = min{Peak Floprate, AI × Bandwidth}";
//! Ding & Williams Eq. 1).

/// Attainable FLOP/s at arithmetic intensity `flops_per_byte` under one compute peak and one
/// bandwidth.
pub fn attainable_flops_per_s(flops_per_byte: f64, peak_flops_per_s: f64, bytes_per_s: f64) -> f64 {
    peak_flops_per_s.min(bytes_per_s * flops_per_byte)
}

/// The ridge (balance) point: the intensity at which the memory roof meets the compute roof,
/// FLOP/byte. The course's "optimal intensity = peak floprate / memory bandwidth".
pub fn ridge_flops_per_byte(peak_flops_per_s: f64, bytes_per_s: f64) -> f64 {
    peak_flops_per_s / bytes_per_s
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
}
