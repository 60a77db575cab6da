//! Built-in examples, honest about their source.

use roofline_engine::counters::{Counter, Counters};
use roofline_engine::KernelProfile;

/// The GPU course's two V100 measurements (roofline slides): AX (x ← αx, n = 500e6 doubles:
/// n FLOPs, 16n bytes, 0.010582 s) and GEMM (n = 5000: 2n³ FLOPs in 0.041 s; bytes from the
/// slide's well-implemented DGEMM intensity of ~32 FLOP/byte).
pub fn course_v100() -> Vec<KernelProfile> {
    let kernel = |name: &str, flops: f64, bytes: f64, time_s: f64| {
        let mut c = Counters::default();
        c.set(Counter::Fp64Flops, flops);
        c.set(Counter::DramBytes, bytes);
        c.set(Counter::TimeS, time_s);
        KernelProfile { name: name.into(), launches: 1, counters: c }
    };
    let n_ax = 500e6;
    let n_gemm: f64 = 5000.0;
    let gemm_flops = 2.0 * n_gemm.powi(3);
    vec![
        kernel("ax_kernel (x ← αx, n = 5e8)", n_ax, 16.0 * n_ax, 0.010582),
        kernel("gemm (n = 5000, cuBLAS DGEMM)", gemm_flops, gemm_flops / 32.0, 0.041),
    ]
}

pub const COURSE_V100_SOURCE: &str = "Example: AX and GEMM on a V100, measured times from a GPU course's roofline slides";
