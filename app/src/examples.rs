//! Built-in examples, honest about their source: every number below is quoted from a text in
//! `shared/reference/` (the doc comments name the slide or paragraph), or is a real profiler
//! file shipped under `public/examples/` (credited in `public/examples/README.md`).
//!
//! [`all`] lists them for the example picker. An example is either kernels built here from
//! published numbers ([`Data::Kernels`]) or real files fetched from the page's own origin and
//! read by the engine's `load_dataset` ([`Data::Files`]). Optimisation paths also carry one
//! run per step ([`Example::runs`], same kernel name in every run) for run comparison.

use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::{catalogue, Basis, Machine};
use roofline_engine::KernelProfile;

/// The GPU course's two V100 measurements (roofline slides): AX (x ← αx, n = 500e6 doubles:
/// n FLOPs, 16n bytes, 0.010582 s) and GEMM (n = 5000: 2n³ FLOPs in 0.041 s; bytes from the
/// slide's well-implemented DGEMM intensity of ~32 FLOP/byte).
pub fn course_v100() -> Vec<KernelProfile> {
    let n_ax = 500e6;
    let n_gemm: f64 = 5000.0;
    let gemm_flops = 2.0 * n_gemm.powi(3);
    vec![
        kernel("ax_kernel (x ← αx, n = 5e8)", n_ax, Some(16.0 * n_ax), 0.010582),
        kernel("gemm (n = 5000, cuBLAS DGEMM)", gemm_flops, Some(gemm_flops / 32.0), 0.041),
    ]
}

pub const COURSE_V100_SOURCE: &str = "Example: AX and GEMM on a V100, measured times from a GPU course's roofline slides";

/// One FP64 kernel from published totals; `bytes` (DRAM) `None` when the source states none.
fn kernel(name: &str, fp64_flops: f64, dram_bytes: Option<f64>, time_s: f64) -> KernelProfile {
    let mut c = Counters::default();
    c.set(Counter::Fp64Flops, fp64_flops);
    if let Some(b) = dram_bytes {
        c.set(Counter::DramBytes, b);
    }
    c.set(Counter::TimeS, time_s);
    KernelProfile { name: name.into(), launches: 1, counters: c }
}

/// A kernel with a measured time and nothing else (the source states no FLOP count).
fn timed_only(name: &str, time_s: f64) -> KernelProfile {
    let mut c = Counters::default();
    c.set(Counter::TimeS, time_s);
    KernelProfile { name: name.into(), launches: 1, counters: c }
}

/// One step of an optimisation path as published.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The step's name as the source prints it.
    pub name: &'static str,
    pub what: &'static str,
    /// FP64 FLOPs (the source's "TFLOPs" × 1e12), where stated.
    pub flops: Option<f64>,
    /// Run time, seconds, where stated.
    pub time_s: Option<f64>,
    /// The source's own FLOP/s column, where stated (a check on flops / time_s).
    pub stated_flops_per_s: Option<f64>,
    /// DRAM bytes, where the source states them or a throughput they follow from.
    pub dram_bytes: Option<f64>,
}

/// BerkeleyGW's Sigma-GPP kernel, optimised in nine steps (Charlene Yang, "Use Cases of
/// Roofline Analysis", NERSC; `shared/reference/roofline-use-cases-berkeleygw-conv2d-yang.txt`).
///
/// FLOPs, time and FLOP/s are the slides' "TFLOPs / Time / TFLOP/s" tables, one per step:
/// "V1. Naïve Implementation" (v1.collapse3 3.71 1.63 2.27), "V2. More Compute Per Thread"
/// (v2.collapse2 3.71 1.73 2.15), "V3. Increase Threadblock Size" (v3.vector512 3.71 1.40
/// 2.65), "V4. Reduce Branching" (v4.iwoutside 3.52 1.17 3.00), "V5. Swap Indices"
/// (v5.swapindices 3.52 1.16 3.03), "V6. Simplify Code" (v6.simplify 3.30 1.10 3.00), "V7.
/// Replace Divides" (v7.divs 2.09 0.66 3.18), "V8. Replace abs(x) with x**2" (v8.abs 1.99 0.62
/// 3.23), "V9. Cache Blocking" (v9.block 2.00 0.57 3.50). The FLOPs are FP64 (the pseudo code
/// slide: "complex double, double, integer"; the Nsight Compute post on the same kernel speaks
/// of "double-precision arithmetic intensity").
///
/// The slides' text states no intensities (the roofline plots are images), so v1–v7 have no
/// byte count and no dot: they are in the table only. v8 and v9 get DRAM bytes from the one
/// byte figure the text has, the Nsight Compute comparison on the second "V9. Cache Blocking"
/// slide: "Memory Throughput [Gbyte/second] 131.85 (-78.99%)", v9 against its baseline v8.
/// So v9 moves 131.85 GB/s and v8 131.85 / (1 − 0.7899) = 627.56 GB/s, and bytes =
/// throughput × the step's time, assuming the profiled throughput holds over the timed run:
/// v9 75.15 GB (26.6 FLOP/byte), v8 389.1 GB (5.11 FLOP/byte).
pub fn berkeleygw_steps() -> Vec<Step> {
    let t = 1e12;
    let v9_bw = 131.85e9;
    let v8_bw = v9_bw / (1.0 - 0.7899);
    let step = |name, what, tflops: f64, time_s: f64, tflop_per_s: f64, bw: Option<f64>| Step {
        name,
        what,
        flops: Some(tflops * t),
        time_s: Some(time_s),
        stated_flops_per_s: Some(tflop_per_s * t),
        dram_bytes: bw.map(|b: f64| b * time_s),
    };
    vec![
        step("v1.collapse3", "collapse n′, G′ and G loops", 3.71, 1.63, 2.27, None),
        step("v2.collapse2", "bring n′ loop in; collapse G′ and G", 3.71, 1.73, 2.15, None),
        step("v3.vector512", "threadblock size 512", 3.71, 1.40, 2.65, None),
        step("v4.iwoutside", "reduce branching; iw loop outside", 3.52, 1.17, 3.00, None),
        step("v5.swapindices", "swap indices", 3.52, 1.16, 3.03, None),
        step("v6.simplify", "simplify code", 3.30, 1.10, 3.00, None),
        step("v7.divs", "rcp and mul instead of div", 2.09, 0.66, 3.18, None),
        step("v8.abs", "x² instead of abs(x)", 1.99, 0.62, 3.23, Some(v8_bw)),
        step("v9.block", "cache blocking", 2.00, 0.57, 3.50, Some(v9_bw)),
    ]
}

/// The GPP mini-app of the Nsight Compute roofline post ("Accelerating HPC Applications with
/// NVIDIA Nsight Compute Roofline Analysis";
/// `shared/reference/nsight-compute-roofline-hierarchical-blog.txt`), steps as its text gives:
///
/// - Baseline (section "Baseline"): "The achieved arithmetic intensity is 7.39 FLOP/byte";
///   run time from "Step 1": "from 1.74s to 1.92s". No FLOP/s is stated: time only, no dot.
/// - Step 1 ("Step 1: Unroll certain loops"): 1.92 s, "a double-precision arithmetic
///   intensity of around 20 FLOP/byte". No FLOP/s stated: time only, no dot.
/// - Before Step 3 ("Step 3: Avoid high-latency instructions"): "the compute performance has
///   increased from 2.5 TFLOP/s" (intensity not stated): FLOPs = 2.5e12 × a nominal 1 s.
/// - Step 3: "to 2.9 TFLOP/s … The arithmetic intensity has dropped to 6.3 FLOP/byte":
///   FLOPs = 2.9e12 × a nominal 1 s, DRAM bytes = FLOPs / 6.3.
///
/// The nominal 1 s is not a measurement (the post gives only "twice as fast overall"); it is
/// there so that FLOPs / time reproduces the stated FLOP/s.
pub fn nsight_steps() -> Vec<Step> {
    let nominal = 1.0;
    vec![
        Step { name: "Baseline", what: "collapse(3); 7.39 FLOP/byte stated, FLOP/s not", flops: None, time_s: Some(1.74), stated_flops_per_s: None, dram_bytes: None },
        Step { name: "Step 1", what: "collapse(2); ~20 FLOP/byte stated, FLOP/s not", flops: None, time_s: Some(1.92), stated_flops_per_s: None, dram_bytes: None },
        Step {
            name: "Before Step 3",
            what: "2.5 TFLOP/s stated, intensity not; time nominal 1 s",
            flops: Some(2.5e12 * nominal),
            time_s: Some(nominal),
            stated_flops_per_s: Some(2.5e12),
            dram_bytes: None,
        },
        Step {
            name: "Step 3",
            what: "rcp instead of complex div, x² instead of abs; time nominal 1 s",
            flops: Some(2.9e12 * nominal),
            time_s: Some(nominal),
            stated_flops_per_s: Some(2.9e12),
            dram_bytes: Some(2.9e12 * nominal / 6.3),
        },
    ]
}

impl Step {
    /// The step as a kernel named `name`.
    pub fn kernel(&self, name: &str) -> KernelProfile {
        match self.flops {
            Some(f) => kernel(name, f, self.dram_bytes, self.time_s.unwrap_or(1.0)),
            None => timed_only(name, self.time_s.unwrap_or(1.0)),
        }
    }

    /// Its table name: "v1.collapse3: collapse n′, G′ and G loops".
    pub fn label(&self) -> String {
        format!("{}: {}", self.name, self.what)
    }
}

/// Where an example's data come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Kernels built from published numbers.
    Kernels(Vec<KernelProfile>),
    /// Real profiler files under `public/examples/`, fetched as `examples/NAME` and read
    /// together (one run) by `load_dataset`.
    Files(Vec<&'static str>),
}

/// A built-in example.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Stable id (`course-v100`, `berkeleygw-gpp`, …).
    pub id: &'static str,
    /// The picker's button text.
    pub title: &'static str,
    /// One line saying where the numbers come from, shown with the example and, once
    /// loaded, as the page's source.
    pub source: &'static str,
    pub data: Data,
    /// The machine to show it on; `None` keeps the current one (or the files' machine).
    pub machine: Option<Machine>,
    /// Optimisation paths: one run per step, each with the same kernel name, to compare
    /// runs. Empty for single-run examples.
    pub runs: Vec<Vec<KernelProfile>>,
    /// The runs' names (the steps'), parallel to `runs`.
    pub run_names: Vec<String>,
}

impl Example {
    /// Relative URLs of its files (resolved against the page, so they work under any path).
    pub fn urls(&self) -> Vec<String> {
        match &self.data {
            Data::Files(names) => names.iter().map(|n| format!("examples/{n}")).collect(),
            Data::Kernels(_) => Vec::new(),
        }
    }
}

fn path_example(id: &'static str, title: &'static str, source: &'static str, steps: &[Step], kernel_name: &str, machine: Machine) -> Example {
    Example {
        id,
        title,
        source,
        data: Data::Kernels(steps.iter().map(|s| s.kernel(&s.label())).collect()),
        machine: Some(machine),
        runs: steps.iter().map(|s| vec![s.kernel(kernel_name)]).collect(),
        run_names: steps.iter().map(|s| s.name.to_string()).collect(),
    }
}

/// The V100 SXM2 at its 1312 MHz base clock with data-sheet peaks, as Nsight Compute draws it
/// (the post's "machine balance point for the V100 in double-precision … 7.5": 6717 GFLOP/s /
/// 900 GB/s = 7.46).
pub fn v100_nsight_compute() -> Machine {
    let m = catalogue::v100().with_basis(Basis::Theoretical);
    let base = m.base_clock_hz.unwrap_or(1312e6);
    let mut m = m.at_clock(base);
    m.name = "NVIDIA V100 SXM2 (1312 MHz base, data sheet)".into();
    m
}

/// Every built-in example, in the picker's order.
pub fn all() -> Vec<Example> {
    vec![
        Example {
            id: "course-v100",
            title: "AX and GEMM on V100 (GPU course)",
            source: COURSE_V100_SOURCE,
            data: Data::Kernels(course_v100()),
            machine: Some(catalogue::v100()),
            runs: Vec::new(),
            run_names: Vec::new(),
        },
        path_example(
            "berkeleygw-gpp",
            "BerkeleyGW GPP, steps v1–v9",
            "Example: BerkeleyGW Sigma-GPP v1–v9, FLOPs and times from C. Yang's NERSC slides; only v8/v9 have bytes (from the slides' 131.85 GB/s, −78.99%), v1–v7 are table-only; GPU assumed V100",
            &berkeleygw_steps(),
            "GPP (Sigma-GPP kernel)",
            catalogue::v100(),
        ),
        path_example(
            "nsight-gpp",
            "GPP in the Nsight Compute roofline post",
            "Example: GPP mini-app steps from NVIDIA's Nsight Compute roofline post: only Step 3 has intensity and FLOP/s (6.3 FLOP/byte, 2.9 TFLOP/s, time nominal 1 s); V100 at base clock",
            &nsight_steps(),
            "GPP mini-app kernel",
            v100_nsight_compute(),
        ),
        Example {
            id: "ncu-nsightful",
            title: "Nsight Compute: Numba copy kernel (NVIDIA)",
            source: "Real profile: ncu --set full of a Numba copy kernel on a T4-class GPU, from brycelelbach/nsightful (BSD-3-Clause); a copy has no FLOPs; the file names no machine",
            data: Data::Files(vec!["ncu-nsightful-copy_blocked.csv"]),
            machine: None,
            runs: Vec::new(),
            run_names: Vec::new(),
        },
        Example {
            id: "nvprof-magus",
            title: "nvprof: Parboil SGEMM (NVIDIA)",
            source: "Real profile: nvprof --metrics all of Parboil sgemm on a GTX 1080 Ti, from leimingyu/magus (MIT); metrics output has no kernel time, so no dot",
            data: Data::Files(vec!["nvprof-magus-parboil_sgemm.csv"]),
            machine: None,
            runs: Vec::new(),
            run_names: Vec::new(),
        },
        Example {
            id: "omniperf-mi200",
            title: "Omniperf: vcopy on MI200 (AMD)",
            source: "Real profile: Omniperf 2.0 vcopy on an MI200 (gfx90a) with its measured roofline as the machine, from ROCm/omniperf tests (MIT)",
            data: Data::Files(vec![
                "rocprof-omniperf-vcopy-MI200-pmc_perf.csv",
                "rocprof-omniperf-vcopy-MI200-roofline.csv",
                "rocprof-omniperf-vcopy-MI200-sysinfo.csv",
            ]),
            machine: None,
            runs: Vec::new(),
            run_names: Vec::new(),
        },
    ]
}

/// The example with this id.
pub fn by_id(id: &str) -> Option<Example> {
    all().into_iter().find(|e| e.id == id)
}
