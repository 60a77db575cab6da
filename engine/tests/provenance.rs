//! Provenance (issue 43): for one kernel of each importer family, every quantity the chart
//! uses is traced to the metrics it came from, value by value against the file. The expected
//! values were computed by hand with python3's csv module on the sample files (the same sums
//! `import_samples.rs`, `import_ncu_rep.rs` and `advisor.rs` check on the counters); each
//! assertion says which.

use roofline_engine::model::catalogue;
use roofline_engine::provenance::Quantity;
use roofline_engine::report::{analyze, KernelReport};
use roofline_engine::{load_dataset, Dataset, SourceFile};

#[macro_use]
mod samples;

use samples::close;
use samples::sample;

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

fn kernel<'a>(kernels: &'a [KernelReport], starts_with: &str) -> &'a KernelReport {
    kernels.iter().find(|k| k.name.starts_with(starts_with)).unwrap_or_else(|| panic!("no kernel {starts_with}"))
}

fn quantity<'a>(k: &'a KernelReport, name: &str) -> &'a Quantity {
    k.provenance.iter().find(|q| q.name == name).unwrap_or_else(|| panic!("{}: no {name} in {:?}", k.name, k.provenance))
}

/// The input of `q` read from `metric`: its value.
fn input(q: &Quantity, metric: &str) -> f64 {
    q.inputs.iter().find(|i| i.metric == metric).unwrap_or_else(|| panic!("{}: no input {metric} in {:?}", q.name, q.inputs)).value
}

#[test]
fn nsight_compute_csv_the_nersc_run() {
    let run = "ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.";
    let metrics = ["dram__bytes.sum", "sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second", "sm__inst_executed_pipe_tensor.sum", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum"];
    let ds = load(&metrics.map(|m| sample(&format!("{run}{m}"))));
    let r = analyze(&ds, Some(&catalogue::v100()));
    let k = kernel(&r.kernels, "Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1_1x3x3x0x1");
    // Σ dram__bytes.sum over its 8 launches = 5920456608 bytes.
    let dram = quantity(k, "DRAM bytes");
    assert_eq!((dram.value, dram.formula.as_str()), (Some(5_920_456_608.0), "dram__bytes.sum"));
    assert_eq!(input(dram, "dram__bytes.sum"), 5_920_456_608.0);
    // Time: Σ over the 8 launches of sm__cycles_elapsed.avg ÷ its .per_second, joined by ID =
    // 0.06592863898121476 s; Σ sm__cycles_elapsed.avg = 86165648.69 cycles.
    let t = quantity(k, "time");
    assert_close!(t.value.expect("time"), 0.065_928_638_981_214_76);
    assert!(t.formula.starts_with("Σ over launches of sm__cycles_elapsed.avg ÷ sm__cycles_elapsed.avg.per_second"), "{}", t.formula);
    assert_close!(input(t, "sm__cycles_elapsed.avg"), 86_165_648.69);
    // Σ sm__inst_executed_pipe_tensor.sum = 10829168640, × 512 FLOPs per HMMA.884 on a V100.
    let tensor = quantity(k, "tensor FLOPs");
    assert_eq!(input(tensor, "sm__inst_executed_pipe_tensor.sum"), 10_829_168_640.0);
    assert_eq!(tensor.value, Some(10_829_168_640.0 * 512.0));
    assert!(tensor.formula.contains("× 512 FLOPs per instruction"), "{}", tensor.formula);
    // FP32: FFMA only (Σ = 0 for this kernel: its work is on the tensor pipe); FADD and FMUL
    // were not collected, FP64 and FP16 not at all: named as missing.
    let fp32 = quantity(k, "FP32 FLOPs");
    assert_eq!(fp32.value, Some(0.0));
    assert_eq!(fp32.missing, ["sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "sm__sass_thread_inst_executed_op_fmul_pred_on.sum"]);
    let fp64 = quantity(k, "FP64 FLOPs");
    assert_eq!((fp64.value, fp64.missing.len()), (None, 3));
    // L2 and L1 bytes are in the NERSC recipe and were not collected.
    assert_eq!(quantity(k, "L2 bytes").missing, ["lts__t_bytes.sum"]);
}

#[test]
fn nsight_compute_report_the_self_join_kernel() {
    let ds = load(&[sample("ncu-rep/self-join-MiSTIC__profile.out.ncu-rep")]);
    let r = analyze(&ds, None);
    let k = &r.kernels[0];
    // gpu__time_duration.sum of the 4 launches: 7543142976 + 7813204256 + 7435364512 +
    // 7129543872 ns = 29.921255616 s; dram__bytes.sum: 1604568293632 + 1463540630912 +
    // 1481111571968 + 1896912317184 = 6446132813696 bytes (import_ncu_rep.rs).
    assert_eq!(input(quantity(k, "time"), "gpu__time_duration.sum"), 29.921255616);
    assert_eq!(input(quantity(k, "DRAM bytes"), "dram__bytes.sum"), 6_446_132_813_696.0);
    // FP64 = DADD + DMUL + 2 × DFMA = 9038264931543 FLOPs (import_ncu_rep.rs), with DMUL 0.
    let fp64 = quantity(k, "FP64 FLOPs");
    assert_eq!(fp64.value, Some(9_038_264_931_543.0));
    let (add, mul, fma) = (
        input(fp64, "sm__sass_thread_inst_executed_op_dadd_pred_on.sum"),
        input(fp64, "sm__sass_thread_inst_executed_op_dmul_pred_on.sum"),
        input(fp64, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum"),
    );
    assert_eq!(mul, 0.0);
    assert_eq!(add + mul + 2.0 * fma, 9_038_264_931_543.0);
    // The report has no half-precision counters.
    assert_eq!(quantity(k, "FP16 FLOPs").missing.len(), 3);
}

#[test]
fn nvprof_metrics_parboil_sgemm() {
    let ds = load(&[sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv")]);
    let r = analyze(&ds, None);
    let k = kernel(&r.kernels, "mysgemmNT(");
    // flop_count_sp Avg 3993600 × 1 invocation.
    let fp32 = quantity(k, "FP32 FLOPs");
    assert_eq!((fp32.value, input(fp32, "flop_count_sp")), (Some(3_993_600.0), 3_993_600.0));
    // dram_read_transactions 0 + dram_write_transactions 13 = 13 transactions × 32 B.
    let dram = quantity(k, "DRAM bytes");
    assert_eq!((dram.value, input(dram, "dram_read_transactions + dram_write_transactions")), (Some(416.0), 13.0));
    assert_eq!(dram.formula, "(dram_read_transactions + dram_write_transactions) × 32");
    // inst_executed 130000.
    assert_eq!(input(quantity(k, "warp instructions"), "inst_executed"), 130_000.0);
    // A metrics file has no time: named as missing.
    let t = quantity(k, "time");
    assert_eq!((t.value, t.missing.len()), (None, 1));
}

#[test]
fn rocprof_compute_vcopy_mi200() {
    let ds = load(&[sample("rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv")]);
    let r = analyze(&ds, None);
    let k = kernel(&r.kernels, "vecCopy(double*, double*, double*, int, int)");
    // Σ over 3 dispatches of (RDREQ − RDREQ_32B) × 64 + RDREQ_32B × 32 + WRREQ_64B × 64 +
    // (WRREQ − WRREQ_64B) × 32 = 45217024 bytes (import_samples.rs); the formula is named.
    let dram = quantity(k, "DRAM bytes");
    assert_eq!(dram.value, Some(45_217_024.0));
    assert!(dram.formula.starts_with("TCC_EA_RDREQ by request size"), "{}", dram.formula);
    // Σ End_Timestamp − Start_Timestamp = 52320 ns.
    assert_close!(quantity(k, "time").value.expect("time"), 52_320e-9);
    // A copy: the VALU FP64 counters were collected and are zero.
    let fp64 = quantity(k, "FP64 FLOPs");
    assert_eq!(fp64.value, Some(0.0));
    assert!(fp64.formula.contains("SQ_INSTS_VALU_FMA_F64"), "{}", fp64.formula);
}

#[test]
fn advisor_html_the_dg1_report() {
    let ds = load(&[sample("advisor-html/oneAPI-samples__roofline_gpu_mm_dpcpp_localmem_DG1_5120.html")]);
    let r = analyze(&ds, None);
    let k = &r.kernels[0];
    // "selfElapsedTime":8.901744540999989; "selfMem" of the DRAM- entry 33.82297728 GB, of
    // SLM- 587.2287744 GB (advisor.rs).
    assert_eq!(input(quantity(k, "time"), "selfElapsedTime"), 8.901744540999989);
    let dram = quantity(k, "DRAM bytes");
    assert_close!(input(dram, "selfMem of the DRAM entry"), 33.82297728);
    assert_eq!(dram.formula, "selfMem of the DRAM entry × 10⁹");
    assert_close!(input(quantity(k, "Shared bytes"), "selfMem of the SLM entry"), 587.2287744);
    // FLOPs = 10^y GFLOP/s × t = 2 × 5120³ (advisor.rs): 268.435456 GFLOP.
    let flops = quantity(k, "FLOPs of unknown precision");
    assert_close!(input(flops, "10^y GFLOPS × selfElapsedTime"), 268.435456);
}
