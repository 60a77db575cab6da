//! The machine a profile is drawn against, at the clock it ran at (issue 12's acceptance), and
//! matrix work judged per data type on real-format files (issue 13's), on the real samples
//! and the importers' fixtures. Expected values are computed by hand in the comments.

mod samples;

use roofline_engine::choice::{choose, ClockBasis, ClockChoice, Chosen};
use roofline_engine::domain::DataType;
use roofline_engine::model::guidance::guide;
use roofline_engine::model::{catalogue, ComputeKind};
use roofline_engine::report::analyze_choice;
use roofline_engine::{load_dataset, SourceFile};
use samples::{all_paths, read, sample};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs()
}

const B200: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";
const T4: &str = "ncu/nsightful__tests_copy_blocked.csv";

#[test]
fn the_b200_raw_page_names_its_gpu_and_picks_the_b200() {
    let ds = load_dataset(&[sample(B200)]).expect("loads");
    let d = &ds.main_device().expect("a device").device;
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("NVIDIA B200"), Some("sm_100"), Some(148)));
    // device__attribute_max_gpu_frequency_khz 1965000.
    assert_eq!(d.max_sm_clock_hz, Some(1.965e9));
    let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
    assert_eq!((c.machine.id.as_str(), c.chosen), ("b200", Chosen::Profile));
    // No SM clock metric in this capture. Nsight Compute locks to base, but NVIDIA publishes
    // no B200 base clock (the 1856 MHz its tensor peaks imply is not one): the roofs stay at
    // the stated 1965 MHz, and a warning says they may be high.
    assert_eq!(catalogue::b200().base_clock_hz, None);
    assert_eq!((c.clock, c.machine.clock_hz), (ClockBasis::Stated, Some(1965e6)));
    assert!(c.warnings.iter().any(|w| w.starts_with("the files carry no measured clock and NVIDIA publishes no base clock for the NVIDIA B200: the roofs are at its stated 1965 MHz")), "{:?}", c.warnings);
    assert!(!c.machine.per_kernel_clock);
}

#[test]
fn the_t4_details_page_is_drawn_at_its_measured_585_mhz() {
    let ds = load_dataset(&[sample(T4)]).expect("loads");
    // "SM Frequency" 584,998,877.44 hz, one launch: the measured clock.
    assert_eq!(ds.measured_sm_clock_hz(), Some(584_998_877.44));
    let d = &ds.main_device().expect("a device").device;
    // The details page gives CC 7.5 and, in Launch Statistics, "# SMs" 40.
    assert_eq!((d.arch.as_deref(), d.sm_count), (Some("sm_75"), Some(40)));
    let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
    assert_eq!((c.machine.id.as_str(), c.clock, c.machine.clock_hz), ("t4", ClockBasis::Measured, Some(584_998_877.44)));
    // The T4's FP32 peak scales from its stated clock to the measured one: 40 SMs × 64 lanes ×
    // 2 FLOPs × 584.99887744 MHz = 2.9952e12 FLOP/s.
    let fp32 = c.machine.compute_ceiling(ComputeKind::Fp32).map(|x| x.flops_per_s).expect("FP32");
    assert!((fp32 / (40.0 * 64.0 * 2.0 * 584_998_877.44) - 1.0).abs() < 0.01, "{fp32}");
    assert_eq!(c.sentence, "Profiled on an sm_75 GPU (40 SMs) at 585 MHz measured: roofs of NVIDIA T4 at 585 MHz (measured)");
    // Boost and base are there for the asking.
    let boost = choose(&ds, None, ClockChoice::Boost).expect("boost").expect("a machine");
    assert_eq!((boost.clock, boost.machine.clock_hz), (ClockBasis::Boost, catalogue::t4().boost_clock_hz));
}

#[test]
fn the_nersc_v100_run_is_drawn_at_its_measured_clock() {
    let ds = load_dataset(&samples::nersc_run()).expect("loads");
    // The files name no device; their clock, time-weighted over the joined launches, is
    // 1307542455.79 Hz (engine/tests/import_samples.rs computes it with python3).
    assert!(ds.main_device().is_none());
    let hz = ds.measured_sm_clock_hz().expect("measured");
    assert!((hz - 1_307_542_455.79).abs() < 1.0, "{hz}");
    assert_eq!(choose(&ds, None, ClockChoice::Measured), Ok(None), "no device, no machine file: no roof is invented");
    let c = choose(&ds, Some(catalogue::v100()), ClockChoice::Measured).expect("a clock").expect("a machine");
    assert_eq!((c.chosen, c.clock), (Chosen::Option, ClockBasis::Measured));
    // FP64 at the measured clock: 80 SMs × 32 FP64 lanes × 2 × 1.30754245579 GHz = 6.6946e12.
    let fp64 = c.machine.compute_ceiling(ComputeKind::Fp64).map(|x| x.flops_per_s).expect("FP64");
    assert!(close(fp64, 80.0 * 32.0 * 2.0 * hz), "{fp64}");
    // HBM does not scale with the SM clock: 828 GB/s measured (Ding & Williams).
    assert_eq!(c.machine.memory.iter().find(|l| l.name == "HBM").map(|l| l.bytes_per_s), Some(828e9));
    assert!(c.sentence.starts_with("The files do not say which GPU ran them (measured at 1308 MHz): roofs of the chosen NVIDIA V100 SXM2"), "{}", c.sentence);
}

#[test]
fn an_nvprof_file_names_its_device_from_the_device_column() {
    let ds = load_dataset(&[sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv")]).expect("loads");
    assert_eq!(ds.main_device().and_then(|r| r.device.name.as_deref()), Some("GeForce GTX 1080 Ti"));
    // A name alone, not in the catalogue: named with its architecture from NVIDIA's
    // compute-capability list (GP102, compute capability 6.1: sm_61; issue 42), no roof
    // invented (no SM count or clock to derive one from).
    let r = analyze_choice(&ds, choose(&ds, None, ClockChoice::Measured).expect("clock").as_ref());
    assert_eq!(r.device.as_ref().and_then(|d| d.name.as_deref()), Some("GeForce GTX 1080 Ti"));
    assert_eq!(r.device.as_ref().and_then(|d| d.arch.as_deref()), Some("sm_61"));
    assert!(r.machine.is_none());
    // …and says why there are no roofs, naming the GPU.
    assert_eq!(
        r.warnings,
        vec!["GeForce GTX 1080 Ti (sm_61) is not a GPU this version knows, and the files carry neither its peaks nor enough of its attributes to derive them: choose its machine to draw roofs".to_string()]
    );
}

#[test]
fn a_rocprof_counter_file_names_its_gpu_only_by_index_and_says_so() {
    let ds = load_dataset(&[sample("rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv")]).expect("loads");
    let r = analyze_choice(&ds, choose(&ds, None, ClockChoice::Measured).expect("clock").as_ref());
    assert!(r.machine.is_none());
    assert_eq!(
        r.warnings,
        vec!["the files name the GPU only by its index (GPU 2), not what it is: choose its machine to draw roofs (a rocprof-compute workload's sysinfo.csv, dropped with them, describes it)".to_string()]
    );
}

#[test]
fn files_that_name_no_gpu_say_why_they_have_no_roofs() {
    let ds = load_dataset(&samples::nersc_run()).expect("loads");
    let r = analyze_choice(&ds, None);
    assert!(r.machine.is_none());
    assert_eq!(r.warnings, vec!["the files do not say which GPU ran them and describe no machine: choose a machine to draw roofs".to_string()]);
}

#[test]
fn every_sample_gets_the_machine_of_its_own_architecture() {
    let archs: Vec<String> = catalogue::all().into_iter().filter_map(|m| m.arch).collect();
    let mut checked = 0;
    for p in all_paths() {
        let Ok(ds) = load_dataset(&[read(&p)]) else { continue };
        let picked = choose(&ds, None, ClockChoice::Measured).unwrap_or_else(|e| panic!("{p}: {e}"));
        let r = analyze_choice(&ds, picked.as_ref());
        let json = serde_json::to_value(&r).unwrap_or_default();
        assert!(json.get("device").is_some(), "{p}: the device key is always printed");
        let Some(arch) = r.device.as_ref().and_then(|d| d.arch.clone()) else { continue };
        if archs.contains(&arch) {
            assert_eq!(r.machine.as_ref().and_then(|m| m.arch.clone()), Some(arch), "{p}");
            checked += 1;
        }
    }
    // The B200 raw page, the T4 details page and rocprof-compute's MI200 sysinfo at least.
    assert!(checked >= 3, "{checked}");
}

#[test]
fn a_v100_picked_for_another_gpu_says_so_and_keeps_its_factor_to_itself() {
    let ds = load_dataset(&[sample(B200)]).expect("loads");
    let c = choose(&ds, Some(catalogue::v100()), ClockChoice::Boost).expect("clock").expect("machine");
    assert_eq!(c.chosen, Chosen::Option);
    assert!(c.warnings.iter().any(|w| w.starts_with("the profile ran on NVIDIA B200 (sm_100, 148 SMs) but the roofs are those of NVIDIA V100 SXM2")), "{:?}", c.warnings);
    // Volta's 512 FLOPs per HMMA is not applied to a Blackwell profile's tensor instructions.
    assert_eq!(c.machine.flops_per_tensor_inst, None);
    assert!(c.warnings.iter().any(|w| w.contains("512 FLOPs per instruction holds on sm_70 only")));
}

fn fixture(name: &str) -> SourceFile {
    read(&format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR")))
}

#[test]
fn mfma_work_in_rocprof_files_is_judged_per_data_type() {
    // engine/tests/fixtures/README.md: 9345703125 MOPS × 512 = 4.785e12 FP64 matrix FLOPs in
    // 0.1 s = 47.85 TFLOP/s = 50% of the MI250X's 95.7; 9.575e12 BF16 FLOPs = 25% of its 383.
    let ds = load_dataset(&[fixture("rocprof-mi250x-mfma.csv")]).expect("loads");
    let m = catalogue::mi250x();
    let frac = |name: &str, t: DataType| {
        let k = ds.kernels.iter().find(|k| k.name.contains(name)).unwrap_or_else(|| panic!("{name}"));
        let g = guide(k, &m).expect("guidance");
        assert_eq!(g.binding.data_type, Some(t), "{name}");
        g.attained_fraction
    };
    assert!(close(frac("dgemm_mfma_f64", DataType::Fp64), 0.5));
    assert!(close(frac("gemm_mfma_bf16", DataType::Bf16), 0.25));
    // The MI300X run: 8.17e12 FP64 FLOPs in 0.1 s = 50% of 163.4; BF16 3.2685e13 = 25% of
    // 1307.4; FP8 1.30745e14 = 50% of 2614.9.
    let ds = load_dataset(&[fixture("rocprofv3-mi300x-mfma.csv")]).expect("loads");
    let m = catalogue::mi300x();
    for (name, t, want) in [("dgemm_mfma_f64", DataType::Fp64, 0.5), ("gemm_mfma_bf16", DataType::Bf16, 0.25), ("fp8", DataType::Fp8, 0.5)] {
        let k = ds.kernels.iter().find(|k| k.name.contains(name)).unwrap_or_else(|| panic!("{name}"));
        let g = guide(k, &m).expect("guidance");
        assert_eq!(g.binding.name, format!("{} matrix compute", t.label()));
        assert!(close(g.attained_fraction, want), "{name}: {}", g.attained_fraction);
    }
}

#[test]
fn an_ampere_file_with_only_tensor_instructions_says_what_to_collect() {
    // A details page (the column layout of shared/samples/ncu/nsightful__tests_copy_blocked.csv)
    // of one launch on an A100 (CC 8.0, 108 SMs) with tensor-pipe instructions and no tensor
    // operations: 1e6 HMMA of unknown shape are not FLOPs.
    let header = r#""ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value""#;
    let row = |metric: &str, unit: &str, value: &str| format!(r#""0","1","app","h","gemm","1","7","(128, 1, 1)","(108, 1, 1)","0","8.0","Command line profiler metrics","{metric}","{unit}","{value}""#);
    let text = [header.to_string(), row("gpu__time_duration.sum", "msecond", "1.5"), row("sm__inst_executed_pipe_tensor.sum", "inst", "1,000,000"), row("launch__sm_count", "SM", "108")].join("\n");
    let ds = load_dataset(&[SourceFile { name: "a100.csv".into(), bytes: text.into_bytes() }]).expect("loads");
    assert_eq!(ds.kernels[0].tensor_flops(None), None);
    let c = choose(&ds, None, ClockChoice::Measured).expect("clock").expect("the A100 of CC 8.0");
    assert_eq!(c.machine.arch.as_deref(), Some("sm_80"));
    let w = c.warnings.iter().find(|w| w.starts_with("tensor instructions")).expect("the tensor warning");
    assert!(w.contains("on Ampere one tensor instruction does a different number of FLOPs"), "{w}");
    assert!(w.contains("sm__ops_path_tensor_src_<type>.sum"));
    assert!(w.contains("ncu --csv --page raw --section SpeedOfLight_HierarchicalTensorRooflineChart --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,dram__bytes.sum ./app > tensor.csv"), "{w}");
    // No FLOPs invented: no guidance from the tensor pipe, and no Volta factor.
    assert_eq!(c.machine.flops_per_tensor_inst, None);
}

#[test]
fn an_a100_locked_at_765_mhz_is_the_pcie_40gb() {
    // engine/tests/fixtures/README.md: CC 8.0, 108 SMs, SM Frequency 765 MHz.
    let ds = load_dataset(&[fixture("ncu-a100-pcie-765mhz.csv")]).expect("loads");
    let c = choose(&ds, None, ClockChoice::Measured).expect("clock").expect("an A100");
    assert_eq!((c.machine.id.as_str(), c.clock, c.machine.clock_hz), ("a100-pcie-40gb", ClockBasis::Measured, Some(765e6)));
    assert_eq!(catalogue::a100_pcie_40gb().base_clock_hz, Some(765e6));
    assert_eq!(c.sentence, "Profiled on an sm_80 GPU (108 SMs) at 765 MHz measured: roofs of NVIDIA A100 PCIe 40GB at 765 MHz (measured)");
    // FP64: 108 SMs × 32 lanes × 2 × 765 MHz = 5.28768 TFLOP/s; the kernel's 8e9 FLOPs in
    // 2.5 ms = 3.2 TFLOP/s = 60.52% of it; DRAM 2e9 bytes in 2.5 ms = 800 GB/s of 1555 GB/s.
    let fp64 = c.machine.compute_ceiling(ComputeKind::Fp64).map(|x| x.flops_per_s).expect("FP64");
    assert!((fp64 / 5.28768e12 - 1.0).abs() < 0.01, "{fp64}");
}
