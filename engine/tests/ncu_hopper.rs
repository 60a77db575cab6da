//! Real Nsight Compute 2025.3 profiles of small kernels on an H100 SXM and an H200
//! (engine/tests/fixtures/ncu-hopper, made by its `make/profile.sh`; fixtures/README.md says
//! how). The kernels' work is known by construction, so the expected counts are computed by
//! hand in the comments from the launch sizes in `make/simt.cu`, `make/tensor.cu` and
//! `make/matmul.py`.

mod samples;

use roofline_engine::choice::{choose, ClockBasis, ClockChoice};
use roofline_engine::domain::profile::Precision;
use roofline_engine::domain::{Counter, DataType};
use roofline_engine::model::guidance::{guide, tensor_work_unmeasured};
use roofline_engine::model::{ComputeKind, Level};
use roofline_engine::report::analyze_choice;
use roofline_engine::{load_dataset, Dataset};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ncu-hopper");

fn load(rel: &str) -> Dataset {
    load_dataset(&[samples::read(&format!("{DIR}/{rel}"))]).unwrap_or_else(|e| panic!("{rel}: {e:?}"))
}

fn kernel<'a>(ds: &'a Dataset, prefix: &str) -> &'a roofline_engine::KernelProfile {
    ds.kernels.iter().find(|k| k.name.starts_with(prefix)).unwrap_or_else(|| panic!("no kernel {prefix}"))
}

fn close(got: Option<f64>, want: f64, what: &str) {
    let g = got.unwrap_or_else(|| panic!("{what}: no value"));
    assert!((g - want).abs() <= 1e-9 * want.abs().max(1.0), "{what}: {g}, expected {want}");
}

/// Threads of every FMA kernel: 1024 blocks × 256.
const FMA_THREADS: f64 = 1024.0 * 256.0;
/// FMA instructions of each FMA kernel: threads × 4 chains × 4096 iterations = 2^32.
const FMAS: f64 = FMA_THREADS * 4.0 * 4096.0;
/// MMAs of each tensor kernel: 264 blocks × 4 warps × 4 MMAs × 2048 iterations.
const MMAS: f64 = 264.0 * 4.0 * 4.0 * 2048.0;

#[test]
fn the_vector_kernels_count_their_flops_exactly() {
    for gpu in ["h200", "h100"] {
        let ds = load(&format!("{gpu}/simt-full.ncu-repz"));
        // 2^32 DFMA = 2^33 FLOPs, and the 3 DADDs of `a0 + a1 + a2 + a3` in each thread.
        close(kernel(&ds, "fma_fp64").flops(Precision::Fp64), 2.0 * FMAS + 3.0 * FMA_THREADS, "fma_fp64");
        close(kernel(&ds, "fma_fp32").flops(Precision::Fp32), 2.0 * FMAS + 3.0 * FMA_THREADS, "fma_fp32");
        // 2^32 HFMA2 thread instructions in the loop and one per thread that ptxas emits
        // outside it, two half lanes each: 2 × (2^32 + 262144) FMAs, 4 FLOPs per HFMA2 (the
        // HADD2s of the final sum come on top).
        let half = kernel(&ds, "fma_fp16");
        close(half.counters.get(Counter::Fp16Fma), 2.0 * (FMAS + FMA_THREADS), "fma_fp16 FMA lanes");
        assert!(half.flops(Precision::Fp16).is_some_and(|f| f > 4.0 * FMAS && f < 4.0 * FMAS * 1.001), "{gpu}");
        // No FLOPs in the copies and transposes.
        for k in ["copy_contiguous", "copy_strided", "transpose_naive", "transpose_smem"] {
            let total: f64 = [Precision::Fp64, Precision::Fp32, Precision::Fp16].iter().filter_map(|p| kernel(&ds, k).flops(*p)).sum();
            assert_eq!(total, 0.0, "{gpu} {k}");
        }
        // The contiguous copy reads and writes 2^25 floats (128 MiB each way). L2 bytes are
        // the sectors L1 sent the L2, reads and writes (`lts__t_sectors_srcunit_tex_op_
        // {read,write,atom,red}.sum` × 32, issue 42: every byte DRAM moves passes through the
        // L2; before, the L2-to-SM reads alone, 128 MiB): 4194304 + 4194304 sectors = 256 MiB.
        // DRAM sees less than both ways (the L2, 50 or 60 MiB, still holds part of what the
        // memset before wrote and keeps part of what the copy writes), more than the reads.
        let mib128 = 134_217_728.0;
        let copy = kernel(&ds, "copy_contiguous");
        let l2 = copy.counters.get(Counter::L2Bytes).expect("L2 bytes");
        assert_eq!(l2, 2.0 * mib128, "{gpu}");
        let dram = copy.counters.get(Counter::DramBytes).expect("DRAM bytes");
        assert!(dram > mib128 * 0.99 && dram <= 2.0 * mib128 * 1.01, "{gpu}: {dram}");
        // The strided copy reads one float per 128 bytes, 2^20 of them: one 32-byte sector each
        // from L2 (32 MiB), and writes them densely, 2^20 floats = 4 MiB = 131072 sectors:
        // 36 MiB through L2 (before, the reads alone: 32 MiB). DRAM gives at least the read
        // sectors and at most 64 bytes per read plus the 4 MiB written (the H200 fetched 64
        // bytes per read, 71.6 MB in all — more than the L2 bytes: DRAM's 64-byte access
        // granularity fills two sectors where L1 asked for one; the H100 32, 34.3 MB, its
        // writes still in L2).
        let strided = kernel(&ds, "copy_strided");
        let l2 = strided.counters.get(Counter::L2Bytes).expect("L2 bytes");
        assert_eq!(l2, (1_048_576.0 + 131_072.0) * 32.0, "{gpu}");
        let dram = strided.counters.get(Counter::DramBytes).expect("DRAM bytes");
        assert!((1_048_576.0 * 32.0..=1_048_576.0 * 68.0 * 1.02).contains(&dram), "{gpu}: {dram}");
    }
}

#[test]
fn the_tensor_kernels_count_their_operations_per_data_type() {
    for gpu in ["h200", "h100"] {
        let ds = load(&format!("{gpu}/tensor-full.ncu-repz"));
        // 2·m·n·k FLOPs per warp MMA: m8n8k4 FP64 512, m16n8k8 TF32 2048, m16n8k16 FP16/BF16
        // 4096, m16n8k32 INT8 8192.
        close(kernel(&ds, "mma_fp64").matrix_flops(DataType::Fp64), MMAS * 512.0, "mma_fp64");
        close(kernel(&ds, "mma_tf32").matrix_flops(DataType::Tf32), MMAS * 2048.0, "mma_tf32");
        close(kernel(&ds, "mma_bf16").matrix_flops(DataType::Bf16), MMAS * 4096.0, "mma_bf16");
        close(kernel(&ds, "mma_fp16").matrix_flops(DataType::Fp16), MMAS * 4096.0, "mma_fp16");
        close(kernel(&ds, "mma_s8").matrix_flops(DataType::Int8), MMAS * 8192.0, "mma_s8");
        // An e4m3 `mma.sync` is not a Hopper instruction (its FP8 path is `wgmma`): ptxas
        // lowers it to FP16 HMMAs plus conversions, and Nsight Compute counts 512 FP16
        // operations per MMA, no FP8 ones.
        let fp8 = kernel(&ds, "mma_fp8");
        assert_eq!(fp8.matrix_flops(DataType::Fp8).unwrap_or(0.0), 0.0, "{gpu}");
        close(fp8.matrix_flops(DataType::Fp16), MMAS * 512.0, "mma_fp8 as FP16");
    }
}

#[test]
fn the_cublas_products_are_two_n_cubed_flops_of_their_type() {
    for gpu in ["h200", "h100"] {
        let ds = load(&format!("{gpu}/torch-full.ncu-repz"));
        assert_eq!(ds.kernels.len(), 2, "{gpu}");
        // 2 × 4096³ = 137438953472: a BF16 product, then an e4m3 one (`torch._scaled_mm`).
        let n3 = 2.0 * 4096f64.powi(3);
        close(ds.kernels[0].matrix_flops(DataType::Bf16), n3, "BF16 product");
        close(ds.kernels[1].matrix_flops(DataType::Fp8), n3, "FP8 product");
        // Drawn against the GPU's own peaks at the clock measured under ncu's clock control,
        // the BF16 product is bound by the dense BF16 roof: 132 SMs × 4096 FLOPs per cycle
        // (`sm__ops_path_tensor_src_bf16_dst_fp32_sparsity_off.sum.peak_sustained`
        // 540672) × the clock.
        let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        assert_eq!(c.clock, ClockBasis::Measured);
        let hz = c.machine.clock_hz.expect("the machine's clock");
        let bf16 = c.machine.matrix_ceiling(DataType::Bf16).expect("BF16 roof").flops_per_s;
        assert!((bf16 / (540_672.0 * hz) - 1.0).abs() < 1e-9, "{gpu}: {bf16}");
        let g = guide(&ds.kernels[0], &c.machine).expect("guidance");
        assert_eq!(g.binding.data_type, Some(DataType::Bf16), "{gpu}");
        assert!(g.attained_fraction > 0.85 && g.attained_fraction < 1.0, "{gpu}: {}", g.attained_fraction);
    }
}

#[test]
fn the_details_page_tells_an_h200_from_an_h100_by_its_memory_clock() {
    // Neither page names the GPU or its memory: CC 9.0, 132 SMs, and "DRAM Frequency" 3.20
    // GHz (H200) or 2.62 GHz (H100).
    for (gpu, id, dram_bytes_per_s) in [("h200", "h200", 4800e9), ("h100", "h100", 3350e9)] {
        let ds = load(&format!("{gpu}/simt-full.details.csv"));
        let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        assert_eq!(c.machine.id, id);
        assert_eq!(c.machine.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(dram_bytes_per_s));
        // The page has no FLOP counts though the report had them: the hint says where they are.
        let gap = ds.warnings.iter().find(|w| w.message.contains("no FLOP counters")).expect("the FLOP gap");
        assert!(gap.hint.as_deref().is_some_and(|h| h.ends_with("open the report itself or its raw page: ncu -i report.ncu-rep --csv --page raw > raw.csv")), "{:?}", gap.hint);
        // Against the right HBM no kernel is above its roof (against the H100's, the H200's
        // copy measured 110% of it).
        let report = analyze_choice(&ds, Some(&c));
        assert!(report.kernels.iter().all(|k| k.guidance.as_ref().is_none_or(|g| !g.above_roof)), "{gpu}");
    }
}

#[test]
fn a_speed_of_light_report_is_drawn_at_the_clock_it_ran_at() {
    // `--clock-control none --section SpeedOfLight --section SpeedOfLight_RooflineChart`: an
    // SM clock ("SM Frequency" 1.98 GHz) and durations, but no `sm__cycles_elapsed.avg`.
    for rel in ["h200/simt-boost.ncu-repz", "h200/simt-boost.raw.csv", "h100/simt-boost.ncu-repz"] {
        let ds = load(rel);
        let hz = ds.measured_sm_clock_hz().unwrap_or_else(|| panic!("{rel}: no clock"));
        assert!((hz / 1.978e9 - 1.0).abs() < 0.001, "{rel}: {hz}");
        let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        assert_eq!(c.clock, ClockBasis::Measured, "{rel}");
        // The FP32 roof at that clock: 132 SMs × 128 FMA lanes × 2 FLOPs × the clock.
        let fp32 = c.machine.compute_ceiling(ComputeKind::Fp32).expect("FP32").flops_per_s;
        assert!((fp32 / (132.0 * 128.0 * 2.0 * hz) - 1.0).abs() < 0.01, "{rel}: {fp32}");
    }
}

#[test]
fn the_raw_pages_read_without_unit_warnings_and_agree_with_the_report() {
    // Nsight Compute 2025.3 prints derived peaks in the count's unit ("thread", "inst",
    // "Kbyte"), and rates of operations with no unit: all understood.
    for rel in ["h200/simt-full.raw.csv", "h200/simt-full.raw-base-units.csv", "h200/tensor-full.raw.csv", "h200/torch-full.raw.csv", "h200/simt-boost.raw.csv"] {
        let ds = load(rel);
        assert!(ds.warnings.iter().all(|w| !w.message.contains("unit")), "{rel}: {:?}", ds.warnings);
    }
    for (raw, rep) in [("h200/simt-full.raw.csv", "h200/simt-full.ncu-repz"), ("h200/tensor-full.raw.csv", "h200/tensor-full.ncu-repz")] {
        let (a, b) = (load(raw), load(rep));
        assert_eq!(a.kernels.len(), b.kernels.len());
        for (x, y) in a.kernels.iter().zip(&b.kernels) {
            assert_eq!(x.name, y.name);
            // The page prints rates to 6 decimals, so counts rebuilt from them agree to 1e-5.
            for c in [Counter::Fp64Fma, Counter::Fp32Fma, Counter::Fp16Fma, Counter::MatrixBf16, Counter::MatrixFp64, Counter::DramBytes, Counter::TimeS] {
                match (x.counters.get(c), y.counters.get(c)) {
                    (Some(p), Some(q)) => assert!((p - q).abs() <= 1e-5 * q.abs().max(1.0), "{} {c:?}: {p} vs {q}", x.name),
                    (p, q) => assert_eq!(p.is_some(), q.is_some(), "{} {c:?}", x.name),
                }
            }
        }
        // The machine as Nsight Compute measured it is the same from either.
        let ca = choose(&a, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        let cb = choose(&b, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        for l in [Level::Dram, Level::L2, Level::L1] {
            let (p, q) = (ca.machine.memory_level(l).map(|m| m.bytes_per_s), cb.machine.memory_level(l).map(|m| m.bytes_per_s));
            assert!(p.zip(q).is_some_and(|(p, q)| (p / q - 1.0).abs() < 1e-3), "{raw} {l:?}: {p:?} vs {q:?}");
        }
    }
}

#[test]
fn tensor_kernels_profiled_without_operations_get_no_verdict() {
    // The NERSC metric list counts tensor-pipe instructions, not operations: on Hopper the
    // work of one depends on its shape, so no roof can judge these kernels.
    for gpu in ["h200", "h100"] {
        let ds = load(&format!("{gpu}/metrics-tensor-boost.csv"));
        let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        // mma_fp64: 8650752 warp MMAs counted, FP64 FLOPs only from the final sums.
        close(kernel(&ds, "mma_fp64").counters.get(Counter::TensorInst), MMAS, "mma_fp64 tensor instructions");
        let report = analyze_choice(&ds, Some(&c));
        for k in &report.kernels {
            assert!(k.guidance.is_none(), "{gpu} {}", k.name);
            assert!(k.summary.starts_with("its tensor-core work was counted in instructions, not operations"), "{}", k.summary);
        }
        assert_eq!(report.whole_run_speedup, None);
        assert!(c.warnings.iter().any(|w| w.contains("sm__ops_path_tensor_src_")), "{:?}", c.warnings);
    }
    // HFMA2.MMA runs on the tensor pipe and counts there too: the H100's fma_fp16 has
    // 67117056 tensor-pipe warp instructions, fewer than its 2^32 HFMA2 ÷ 32 = 134217728 warp
    // instructions, so its work is measured and it keeps its verdict.
    let ds = load("h100/metrics-simt-boost.csv");
    let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
    let half = kernel(&ds, "fma_fp16");
    close(half.counters.get(Counter::TensorInst), 67_117_056.0, "HFMA2.MMA");
    assert!(!tensor_work_unmeasured(half, &c.machine));
    let g = guide(half, &c.machine).expect("guidance");
    assert_eq!(g.binding.compute, Some(ComputeKind::Fp16));
}

#[test]
fn mma_sync_kernels_are_judged_against_the_two_thirds_their_path_reaches() {
    use roofline_engine::model::guidance::{mma_sync_share, runs_on_mma_sync, summary};
    for gpu in ["h200", "h100"] {
        let ds = load(&format!("{gpu}/tensor-full.ncu-repz"));
        let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
        assert_eq!(mma_sync_share(&c.machine, DataType::Bf16), Some(2.0 / 3.0));
        let bf16 = kernel(&ds, "mma_bf16");
        // Every BF16 operation went through `op_hmma` (MMAS × 4096 of them).
        close(bf16.counters.get(Counter::MatrixSyncOps), MMAS * 4096.0, "mma_bf16 via mma.sync");
        assert!(runs_on_mma_sync(bf16));
        let g = guide(bf16, &c.machine).expect("guidance");
        let roof = c.machine.matrix_ceiling(DataType::Bf16).expect("BF16 roof").flops_per_s;
        let bound = g.bounds.iter().find(|b| b.name == "BF16 matrix via mma.sync compute").expect("the mma.sync bound");
        // Its own bound: FLOPs ÷ (2/3 of the roof), the roof at the kernel's own measured
        // clock (the run's roof × its clock ÷ the run's, issue 42).
        let own = roofline_engine::model::guidance::kernel_clock_factor(bf16, &c.machine);
        assert!(c.machine.per_kernel_clock && own != 1.0, "{gpu}: {own}");
        assert!((bound.time_s / (MMAS * 4096.0 / (roof * own * 2.0 / 3.0)) - 1.0).abs() < 1e-12, "{gpu}");
        // 62% of the whole roof is about 93% of what mma.sync can do.
        assert!(g.attained_fraction > 0.85 && g.attained_fraction <= 1.0, "{gpu}: {}", g.attained_fraction);
        let s = summary(bf16, Some(&g), Some(&c.machine));
        assert!(s.contains("runs on warp-level mma.sync, which reaches 67% of the BF16 matrix roof on this GPU: wgmma (CUTLASS 3, cuBLAS) can run it up to 1.5x faster"), "{s}");
        // FP64's DMMA has no faster path: judged against the whole FP64 matrix roof.
        assert_eq!(mma_sync_share(&c.machine, DataType::Fp64), None);
    }
    // cuBLAS's BF16 product runs on wgmma: no mma.sync operations, the whole roof.
    let ds = load("h200/torch-full.ncu-repz");
    assert!(!runs_on_mma_sync(&ds.kernels[0]));
    assert_eq!(ds.kernels[0].counters.get(Counter::MatrixSyncOps).unwrap_or(0.0), 0.0);
}

/// Each kernel is judged at the SM clock it ran at, as Nsight Compute judges each launch (issue
/// 42): the H200 tensor run's raw page has its FP64 kernel at 1.499073 GHz and its BF16 one at
/// 1.362761 GHz (`sm__cycles_elapsed.avg.per_second`), one launch each.
#[test]
fn each_kernel_is_judged_at_its_own_clock() {
    use roofline_engine::model::guidance::kernel_clock_factor;
    let ds = load("h200/tensor-full.raw.csv");
    let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
    assert_eq!(c.clock, ClockBasis::Measured);
    assert!(c.machine.per_kernel_clock);
    let run_hz = c.machine.clock_hz.expect("a clock");
    let (fp64, bf16) = (kernel(&ds, "mma_fp64"), kernel(&ds, "mma_bf16"));
    close(fp64.counters.get(Counter::ClockHz), 1.499073e9, "mma_fp64 clock");
    close(bf16.counters.get(Counter::ClockHz), 1.362761e9, "mma_bf16 clock");
    close(Some(kernel_clock_factor(bf16, &c.machine)), 1.362761e9 / run_hz, "BF16 factor");
    // The BF16 kernel's mma.sync bound: its operations over two thirds of the BF16 roof at
    // its own 1.362761 GHz, not at the run's mean.
    let g = guide(bf16, &c.machine).expect("guidance");
    let roof_at_run = c.machine.matrix_ceiling(DataType::Bf16).expect("BF16 roof").flops_per_s;
    let bound = g.bounds.iter().find(|b| b.name == "BF16 matrix via mma.sync compute").expect("the mma.sync bound");
    let want = MMAS * 4096.0 / (roof_at_run * 1.362761e9 / run_hz * 2.0 / 3.0);
    assert!((bound.time_s / want - 1.0).abs() < 1e-12, "{} vs {want}", bound.time_s);
    // The sentence names the range: 1360 (mma_fp16, 1.359854 GHz) to 1499 MHz.
    assert!(c.sentence.ends_with("; each kernel judged at its own clock, 1360–1499 MHz"), "{}", c.sentence);
    // At a fixed clock (base, boost, a frequency), every kernel at that one.
    let boost = choose(&ds, None, ClockChoice::Boost).expect("boost").expect("a machine");
    assert!(!boost.machine.per_kernel_clock);
    assert_eq!(kernel_clock_factor(bf16, &boost.machine), 1.0);
}
