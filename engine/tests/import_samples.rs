//! Every real profiler output in `shared/samples/` loads through `load_dataset`, read in
//! place (the repository's `shared/` sits beside the clone, as in CI). Expected values were
//! computed by hand with python3's csv module on the sample files; each assertion says how.

use roofline_engine::domain::counters::Counter;
use roofline_engine::model::{ComputeKind, Level};
use roofline_engine::domain::profile::Precision;
use roofline_engine::{load_dataset, Dataset, KernelProfile, SourceFile};

#[macro_use]
mod samples;

use samples::close;
use samples::{read as source, sample};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

fn kernel<'a>(ds: &'a Dataset, starts_with: &str) -> &'a KernelProfile {
    ds.kernels.iter().find(|k| k.name.starts_with(starts_with)).unwrap_or_else(|| panic!("no kernel {starts_with}"))
}


const NERSC_RUN: &str = "ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.";
const NERSC_METRICS: [&str; 5] = [
    "dram__bytes.sum",
    "sm__cycles_elapsed.avg",
    "sm__cycles_elapsed.avg.per_second",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "sm__inst_executed_pipe_tensor.sum",
];

#[test]
fn every_sample_loads_except_the_failed_run_log() {
    let mut loaded = 0;
    for p in samples::all_paths() {
        let result = load_dataset(&[source(&p)]);
        if p.contains("flashinfer_paged_decode") {
            assert!(result.is_err(), "{p}: the failed-run log must not load");
            continue;
        }
        let ds = result.unwrap_or_else(|e| panic!("{p}: {e}"));
        // rocprof-compute's sysinfo.csv describes a device, not a machine (issue 41).
        assert!(!ds.kernels.is_empty() || ds.machine.is_some() || !ds.devices.runs.is_empty(), "{p}: neither kernels nor a machine nor a device");
        loaded += 1;
    }
    assert_eq!(loaded, 37, "samples loaded (38 files with advisor-html, one failed-run log)");
}

#[test]
fn detection_is_by_content_not_name() {
    let f = sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv");
    let a = load(std::slice::from_ref(&f));
    let b = load(&[SourceFile { name: "renamed.txt".into(), bytes: f.bytes.clone() }]);
    let c = load(&[SourceFile { name: "profile.json".into(), bytes: f.bytes }]);
    assert_eq!(a.kernels, b.kernels);
    assert_eq!(a.kernels, c.kernels);
    assert_eq!(b.files[0].format, "nvprof-metrics");
    let ert = sample("ert/Empirical-Roofline-Toolkit__Empirical_Roofline_Tool-1.1.0_Results_roofline.edison.nersc.gov.01.json");
    let renamed = load(&[SourceFile { name: "results.csv".into(), bytes: ert.bytes.clone() }]);
    let (m1, m2) = (load(&[ert]).machine.expect("machine"), renamed.machine.expect("machine"));
    assert_eq!((m1.id, m1.memory, m1.compute), (m2.id, m2.memory, m2.compute));
}

#[test]
fn nvprof_metrics_parboil_sgemm_flops() {
    let ds = load(&[sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv")]);
    let k = kernel(&ds, "mysgemmNT(");
    // flop_count_sp Avg = 3993600 × Invocations 1 (row "flop_count_sp" of the file).
    assert_eq!(k.flops(Precision::Fp32), Some(3_993_600.0));
    // dram_read_transactions 0 + dram_write_transactions 13, × 32-byte sectors.
    assert_eq!(k.counters.get(Counter::DramBytes), Some(13.0 * 32.0));
    assert_eq!(k.counters.get(Counter::WarpInst), Some(130_000.0)); // inst_executed
    assert_eq!(k.display_name(), "mysgemmNT");
    assert_eq!(ds.warnings.len(), 1, "no time in a metrics file: warned");
}

#[test]
fn nvprof_metrics_other_generations() {
    let ds = load(&[sample("nvprof/magus__apps_rodinia30_lavaMD_metrics.csv")]);
    let k = kernel(&ds, "kernel_gpu_cuda(");
    // flop_count_dp 11415296000; (5680729 + 8510927) DRAM transactions × 32.
    assert_eq!(k.flops(Precision::Fp64), Some(11_415_296_000.0));
    assert_eq!(k.counters.get(Counter::DramBytes), Some((5_680_729.0 + 8_510_927.0) * 32.0));
    let ds = load(&[sample("nvprof/magus__apps_cudasdk80_7_CUDALibraries_simpleCUBLAS_simpleCUBLAS_metrics.csv")]);
    assert_eq!(kernel(&ds, "maxwell_sgemm").flops(Precision::Fp32), Some(68_935_680.0));
}

#[test]
fn nvprof_trace_total_time_and_transfers() {
    let ds = load(&[sample("nvprof/magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv")]);
    assert_eq!(ds.kernels.len(), 1, "the ` [1171]` correlation suffixes are removed");
    let k = &ds.kernels[0];
    assert_eq!(k.name, "void test_interval_newton<double>(interval_gpu<double>*, int*, interval_gpu<double>, int)");
    assert_eq!(k.launches, 100);
    // Σ Duration (ms) of the 100 kernel rows = 33.522205 ms.
    assert_close!(k.time_s().unwrap(), 33.522205e-3);
    assert_eq!(ds.transfers.len(), 2);
    // memcpy rows: 316.187384 ms, 128 MB (nvprof MB = 2^20 bytes).
    assert_close!(ds.transfers[0].time_s.unwrap(), 0.316187384);
    assert_eq!(ds.transfers[0].bytes, Some(128.0 * 1024.0 * 1024.0));
}

#[test]
fn nvprof_summary_csv_with_mixed_units() {
    let ds = load(&[sample("nvprof/GPGPU_Project__bench_txt_files_base_model-ACET.txt")]);
    // 13 GPU rows: 9 kernels, 4 copies/memsets.
    assert_eq!((ds.kernels.len(), ds.transfers.len()), (9, 4));
    let k = kernel(&ds, "hysteresis_kernel(");
    // Time column unit is `s`: 1.285081 s over 13672 calls.
    assert_eq!(k.launches, 13672);
    assert_close!(k.time_s().unwrap(), 1.285081);
}

#[test]
fn nvprof_text_outputs_join_by_kernel_name() {
    let metrics = sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile");
    let time = sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile.time");
    let ds = load(&[metrics, time]);
    assert_eq!(ds.files[0].format, "nvprof-metrics-text");
    assert_eq!(ds.files[1].format, "nvprof-summary-text");
    // 7 kernels in both files (the summary's 7 kernels; 3 copy/memset rows are transfers).
    assert_eq!(ds.kernels.len(), 7);
    assert_eq!(ds.transfers.len(), 3);
    // First summary row: 5.2583ms over 100 calls; its kernel also has a metric block (100 invocations).
    let first = ds.kernels.iter().find(|k| k.time_s().is_some_and(|t| close(t, 5.2583e-3))).expect("5.2583 ms kernel");
    assert_eq!(first.launches, 100);
    assert!(first.name.starts_with("void thrust::system::cuda::detail::bulk_::detail::launch_by_value<unsigned int=0"));
    // Σ of the 7 kernel times: 5.2583 + 4.1259 + 3.5217 + 2.7046 + 0.90866 + 0.019201 + 0.018560 ms.
    let total: f64 = ds.kernels.iter().filter_map(|k| k.time_s()).sum();
    assert_close!(total, (5.2583 + 4.1259 + 3.5217 + 2.7046 + 0.90866 + 0.019201 + 0.018560) * 1e-3);
}

#[test]
fn ncu_nersc_run_joins_five_files() {
    let files: Vec<SourceFile> = NERSC_METRICS.iter().map(|m| sample(&format!("{NERSC_RUN}{m}"))).collect();
    let ds = load(&files);
    assert_eq!(ds.kernels.len(), 49);
    let k = kernel(&ds, "Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1_1x3x3x0x1");
    // python3: the 8 launches (IDs 193 … 541) of this kernel in each file:
    // Σ dram__bytes.sum = 5920456608 bytes; Σ sm__cycles_elapsed.avg = 86165648.69 cycles;
    // time = Σ over the 8 launches of sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second
    // (each launch's cycles at its own clock, joined by ID) = 0.06592863898121476 s (python3;
    // Σcycles / mean clock, 86165648.69 / 1300152767.70875, would say 0.066273 s).
    assert_eq!(k.launches, 8);
    assert_eq!(k.counters.get(Counter::DramBytes), Some(5_920_456_608.0));
    assert_close!(k.counters.get(Counter::Cycles).unwrap(), 86_165_648.69);
    assert_close!(k.time_s().unwrap(), 0.065_928_638_981_214_76);
    // The run's measured SM clock, Σcycles / Σ(cycles / clock) over the 537 launches whose ID
    // names the same kernel in the cycles and the clock file (the five files are five runs;
    // 22 IDs name other kernels) (python3): 1307542455.79 Hz, inside the files' range
    // 1279067819.99 … 1312181799.1 Hz.
    assert_close!(ds.measured_sm_clock_hz().unwrap(), 1_307_542_455.789_968);
    // Σ sm__inst_executed_pipe_tensor.sum = 10829168640; × 512 FLOPs/HMMA on V100.
    assert_eq!(k.counters.get(Counter::TensorInst), Some(10_829_168_640.0));
    assert_eq!(k.tensor_flops(Some(512.0)), Some(10_829_168_640.0 * 512.0));
    // Time from the cycles files, FLOPs from tensor instructions and FFMA, bytes from DRAM; the
    // one warning: the set collected FFMA and the tensor pipe only (issue 43). python3: 27 of
    // the 49 kernels have Σ(2 × FFMA) + Σ(512 × tensor instructions) = 0, and their time (Σ
    // cycles ÷ clock over launches joined by ID; Σcycles ÷ the kernel's mean clock where a
    // launch does not join) is 0.06845 of 0.19865 s = 34.5% of the run's.
    assert_eq!(ds.warnings.len(), 1, "{:?}", ds.warnings);
    let w = &ds.warnings[0].message;
    assert!(w.starts_with("FLOPs were collected in part, without DADD, DMUL, DFMA, FADD, FMUL, HADD, HMUL, HFMA: kernels"), "{w}");
    assert!(w.ends_with("27 of 49 kernels show no FLOPs, 34% of the run's time"), "{w}");
    // Per-launch view: launch 193 has all five counters.
    let l = ds.launches.iter().find(|l| l.id == Some(193)).expect("launch 193");
    assert_eq!(l.counters.iter().count(), 5);
}

#[test]
fn ncu_details_2025_with_rule_rows_and_thousands_separators() {
    let ds = load(&[sample("ncu/nsightful__tests_copy_blocked.csv")]);
    let k = &ds.kernels[0];
    assert!(k.name.starts_with("copy_blocked[v1,cw51"));
    assert_eq!(k.display_name().split('[').next(), Some("copy_blocked"));
    // Duration 21,058,944 ns; Elapsed Cycles 12,319,469; SM Frequency 584,998,877.44 hz.
    assert_close!(k.time_s().unwrap(), 0.021_058_944);
    assert_eq!(k.counters.get(Counter::Cycles), Some(12_319_469.0));
    assert_eq!(k.counters.get(Counter::ClockHz), Some(584_998_877.44));
    // DRAM bytes = "Memory Throughput" (Memory Workload Analysis) 196,456,177,859.63 byte/s
    // × Duration 0.021058944 s = 4137159647.999988 bytes.
    assert_close!(k.counters.get(Counter::DramBytes).unwrap(), 196_456_177_859.63 * 0.021_058_944);
    assert_eq!(k.counters.get(Counter::WarpInst), Some(16_105_472.0)); // Executed Instructions
}

#[test]
fn ncu_raw_page_b200() {
    let ds = load(&[sample("ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv")]);
    assert_eq!(ds.files[0].format, "ncu-raw");
    assert_eq!((ds.kernels.len(), ds.launches.len()), (2, 16));
    // gpu__time_duration.sum (ns) summed per kernel over its 8 launches: 95392 and 3167552 ns.
    let combine = kernel(&ds, "void flash_fwd_splitkv_combine_kernel");
    let main = kernel(&ds, "void flash_fwd_splitkv_kernel");
    assert_eq!(combine.launches, 8);
    assert_close!(combine.time_s().unwrap(), 95_392e-9);
    assert_close!(main.time_s().unwrap(), 3_167_552e-9);
    assert_eq!(combine.display_name(), "flash_fwd_splitkv_combine_kernel<…>");
}

#[test]
fn rocprof_counters_join_the_stats_trace() {
    let bytes = sample("rocprof/HPCTrainingExamples__rocm-blogs-codes_finite-difference_examples_.xr_09-11-2023_18-57-23_laplacian_dp_kernel1_data_movement.csv");
    let trace = sample("rocprof/HPCTrainingExamples__rocm-blogs-codes_finite-difference_examples_.xr_09-11-2023_18-57-23_laplacian_dp_kernel1_results.csv");
    let ds = load(&[bytes, trace]);
    let k = kernel(&ds, "laplacian_kernel");
    assert_eq!(k.launches, 1001);
    // Σ (FETCH_SIZE + WRITE_SIZE) over the 1001 laplacian_kernel rows × 1024 (KB) = 3099611785408 bytes.
    assert_eq!(k.counters.get(Counter::DramBytes), Some(3_099_611_785_408.0));
    // Σ DurationNs of the same rows in results.csv = 2646378558 ns.
    assert_close!(k.time_s().unwrap(), 2.646_378_558);
    // `__amd_rocclr_fillBufferAligned.kd`: the code-object suffix is removed.
    assert!(ds.kernels.iter().any(|k| k.name == "__amd_rocclr_fillBufferAligned"));
}

#[test]
fn rocprof_stats_summary() {
    let ds = load(&[sample("rocprof/HPCTrainingExamples__rocm-blogs-codes_finite-difference_examples_results.stats.csv")]);
    assert_eq!(ds.kernels.len(), 4);
    let k = kernel(&ds, "void laplacian_kernel<double>(");
    assert!(!k.name.ends_with(".kd]"), "[clone .kd] removed: {}", k.name);
    // 1001 calls, TotalDurationNs 2608618986.
    assert_eq!(k.launches, 1001);
    assert_close!(k.time_s().unwrap(), 2.608_618_986);
}

#[test]
fn rocprof_compute_pmc_perf_mi200() {
    let ds = load(&[sample("rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv")]);
    let k = kernel(&ds, "vecCopy(double*, double*, double*, int, int)");
    assert_eq!(k.launches, 3);
    // python3, per dispatch with the _sum columns: (RDREQ − RDREQ_32B) × 64 + RDREQ_32B × 32
    // + WRREQ_64B × 64 + (WRREQ − WRREQ_64B) × 32, summed over 3 dispatches = 45217024 bytes.
    assert_eq!(k.counters.get(Counter::DramBytes), Some(45_217_024.0));
    // Σ End_Timestamp − Start_Timestamp = 52320 ns.
    assert_close!(k.time_s().unwrap(), 52_320e-9);
    // A copy kernel: VALU FLOP counters were measured and are zero.
    assert_eq!(k.flops(Precision::Fp64), Some(0.0));
    let mi300 = load(&[sample("rocprof/omniperf__tests_workloads_vcopy_MI300X_A1_pmc_perf.csv")]);
    assert!(kernel(&mi300, "vecCopy(").counters.get(Counter::DramBytes).is_some());
}

#[test]
fn rocprof_per_counter_files_list_kernels() {
    let ds = load(&[sample("rocprof/omniperf__tests_workloads_multikernel_MI200_SQ_LEVEL_WAVES.csv")]);
    assert_eq!(ds.kernels.len(), 7);
    assert!(ds.kernels.iter().any(|k| k.name == "global_write(int*, int)"));
    assert!(ds.kernels.iter().all(|k| k.flops(Precision::Fp64).is_none()), "TRANS_F64 alone is not a FLOP count");
    let ds = load(&[sample("rocprof/omniperf__tests_workloads_vcopy_MI300X_A1_SQ_INST_LEVEL_VMEM.csv")]);
    assert_eq!(kernel(&ds, "vecCopy(").launches, 3);
}

#[test]
fn rocprof_compute_machine_files_merge() {
    // Issue 41: roofline.csv is the one machine file of a rocprof-compute workload; its
    // sysinfo.csv describes the device (whose catalogue entry has the data-sheet HBM), so the
    // machine has one DRAM level, the measured one, in either order of the files (before the
    // issue, sysinfo's "HBM (theoretical)" 1638.4 GB/s was merged in as a second DRAM level and
    // the first file's judged).
    let roof = sample("rocprof/omniperf__tests_workloads_vcopy_MI200_roofline.csv");
    let sys = sample("rocprof/omniperf__tests_workloads_vcopy_MI200_sysinfo.csv");
    for files in [vec![roof.clone(), sys.clone()], vec![sys, roof]] {
        let ds = load(&files);
        let m = ds.machine.expect("machine");
        // Device 0 row: HBMBw 1388.9302 GB/s (empirical).
        assert_close!(m.memory_level(Level::Dram).unwrap().bytes_per_s, 1388.9302e9);
        assert_eq!(m.memory.iter().filter(|l| l.level == Level::Dram).count(), 1);
        assert_close!(m.memory_level(Level::Shared).unwrap().bytes_per_s, 17717.834e9);
        assert_close!(m.compute_ceiling(ComputeKind::Fp64).unwrap().flops_per_s, 20272.537e9);
        assert_close!(m.compute_ceiling(ComputeKind::Tensor).unwrap().flops_per_s, 164938.17e9); // MFMA F16
    }
}

#[test]
fn advisor_survey_loops() {
    let ds = load(&[sample("advisor/Intel-advisor-guide__example_profile_data_example_survey.csv")]);
    let k = kernel(&ds, "[loop in findlayer at DLMUSN.f90:7505]");
    // Row ID 88: Self Elapsed Time 28.970s, Self GFLOP 477.986 (Data Types "Float64; Int32; UInt32"),
    // Self GINTOP 131.446, Self Memory GB 764.777.
    assert_eq!(k.launches, 1, "the remainder row without ID or data is skipped");
    assert_close!(k.time_s().unwrap(), 28.97);
    assert_close!(k.flops(Precision::Fp64).unwrap(), 477.986e9);
    assert_close!(k.counters.get(Counter::IntOps).unwrap(), 131.446e9);
    assert_close!(k.counters.get(Counter::L1Bytes).unwrap(), 764.777e9);
    assert_eq!(k.counters.get(Counter::DramBytes), None, "Self DRAM GB is 0: not collected");
}

#[test]
fn ert_json_machines() {
    let ds = load(&[sample("ert/Empirical-Roofline-Toolkit__Empirical_Roofline_Tool-1.1.0_Results_roofline.edison.nersc.gov.01.json")]);
    let m = ds.machine.expect("machine");
    assert_eq!(m.id, "ert-edison");
    // empirical: L1 1723.23, L2 1075.56, L3 669.08, DRAM 83.0 GB/s; 355.79 GFLOP/s (FP64, ERT's default).
    assert_close!(m.memory_level(Level::Dram).unwrap().bytes_per_s, 83.0e9);
    assert_close!(m.memory_level(Level::L3).unwrap().bytes_per_s, 669.08e9);
    assert_close!(m.compute_ceiling(ComputeKind::Fp64).unwrap().flops_per_s, 355.79e9);
    // spec section: DRAM 102.4 GB/s, 460.4 GFLOP/s, after the empirical ones.
    assert!(m.memory.iter().any(|l| l.name == "DRAM (spec)" && close(l.bytes_per_s, 102.4e9)));
    assert!(m.compute.iter().any(|c| c.name == "FP64 (spec)" && close(c.flops_per_s, 460.4e9)));
    let titan = load(&[sample("ert/Empirical-Roofline-Toolkit__Empirical_Roofline_Tool-1.1.0_Results_roofline.titan.ccs.ornl.gov.02.json")]);
    let m = titan.machine.expect("machine");
    assert_eq!(m.id, "ert-titan-login8-ccs-ornl-gov");
    assert_close!(m.memory_level(Level::Dram).unwrap().bytes_per_s, 160.66e9);
}

#[test]
fn fixtures_for_formats_without_samples() {
    let ds = load(&[source(&format!("{FIXTURES}/ert-sum.txt"))]);
    assert_eq!(ds.files[0].format, "ert-sum");
    let m = ds.machine.expect("machine");
    assert_eq!(m.id, "ert-fixture-host");
    assert_close!(m.memory_level(Level::L1).unwrap().bytes_per_s, 1723.23e9);
    assert_close!(m.compute_ceiling(ComputeKind::Fp64).unwrap().flops_per_s, 355.79e9);

    let ds = load(&[source(&format!("{FIXTURES}/advisor-roofs.csv"))]);
    let m = ds.machine.expect("machine");
    assert_close!(m.memory_level(Level::L1).unwrap().bytes_per_s, 1843.2e9); // not the single-threaded roof
    assert_close!(m.memory_level(Level::Dram).unwrap().bytes_per_s, 83e9);
    assert_close!(m.compute_ceiling(ComputeKind::Fp64).unwrap().flops_per_s, 460.4e9); // DP FMA first
    assert_close!(m.compute_ceiling(ComputeKind::Fp32).unwrap().flops_per_s, 920.8e9);

    let ds = load(&[source(&format!("{FIXTURES}/rocprofv3_counter_collection.csv"))]);
    let k = &ds.kernels[0];
    assert_eq!((k.launches, k.display_name().as_str()), (2, "axpy<…>"));
    // 2 dispatches × 64 lanes × 2 × 16384 FMA = 4194304 FLOPs; (8192 + 4096) KB × 1024 × 2;
    // (20000 + 30000) ns.
    assert_eq!(k.flops(Precision::Fp32), Some(4_194_304.0));
    assert_eq!(k.counters.get(Counter::DramBytes), Some(12_288.0 * 1024.0 * 2.0));
    assert_close!(k.time_s().unwrap(), 50_000e-9);

    let ds = load(&[source(&format!("{FIXTURES}/tidy-example.csv"))]);
    let k = kernel(&ds, "stencil");
    // two rows: 10 + 5 launches, 0.5 + 0.25 s, 2e10 + 1e10 FLOPs, 8e9 + 4e9 bytes.
    assert_eq!(k.launches, 15);
    assert_close!(k.time_s().unwrap(), 0.75);
    assert_close!(k.flops(Precision::Fp64).unwrap(), 3e10);
    assert_close!(k.counters.get(Counter::DramBytes).unwrap(), 12e9);
    assert_eq!(kernel(&ds, "reduce").counters.get(Counter::L2Bytes), Some(2e8));
}

#[test]
fn the_downloadable_tidy_template_loads() {
    let ds = load(&[source(concat!(env!("CARGO_MANIFEST_DIR"), "/../public/examples/tidy-template.csv"))]);
    let k = kernel(&ds, "my_kernel");
    assert_eq!(k.launches, 100);
    assert_close!(k.time_s().unwrap(), 0.0125);
    assert!(ds.warnings.is_empty(), "{:?}", ds.warnings);
}

#[test]
fn machine_and_profile_files_together() {
    let ds = load(&[
        sample("ert/Empirical-Roofline-Toolkit__Empirical_Roofline_Tool-1.1.0_Results_roofline.titan.ccs.ornl.gov.02.json"),
        sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv"),
    ]);
    assert!(ds.machine.is_some());
    assert_eq!(ds.kernels.len(), 1);
}
