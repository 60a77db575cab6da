//! Nsight Compute reports (`.ncu-rep`, `.nsight-cuprof-report`, `.ncu-repz`) read in place
//! from `shared/samples/ncu-rep/`, whole and in chunks.
//!
//! Expected values were read from the same files with NVIDIA's own reader, the `ncu_report`
//! Python module (PyPI `ncu-report` 2026.3.1): `action.metric_by_name(name).value()` for
//! `gpu__time_duration.sum` (`gpu__time_duration` in the 2019.5 report, ns),
//! `dram__bytes_read.sum` + `dram__bytes_write.sum`, `device__attribute_*`, and the action
//! count per kernel name. Sums over launches were added by hand and are written out here.

use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::domain::counters::Counter;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::sample;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ncu-rep");

fn load(f: SourceFile) -> Dataset {
    load_dataset(&[f]).unwrap_or_else(|e| panic!("{e}"))
}

/// A report pushed to the builder in chunks of `chunk` bytes.
fn load_chunked(f: &SourceFile, chunk: usize) -> Dataset {
    let mut b = DatasetBuilder::new();
    for part in f.bytes.chunks(chunk) {
        b.push_chunk(&f.name, part).unwrap_or_else(|e| panic!("{e}"));
    }
    b.finish().unwrap_or_else(|e| panic!("{e}"))
}

fn fixture(name: &str) -> SourceFile {
    samples::read(&format!("{FIXTURES}/{name}"))
}

/// One kernel as NVIDIA's reader gives it: name prefix, launches, Σ duration (ns),
/// Σ DRAM bytes (read + write) where the report has them.
struct Expected {
    kernel: &'static str,
    launches: u64,
    time_ns: f64,
    dram_bytes: Option<f64>,
}

const fn k(kernel: &'static str, launches: u64, time_ns: f64, dram_bytes: Option<f64>) -> Expected {
    Expected { kernel, launches, time_ns, dram_bytes }
}

/// Every sample report: (file, tool, device name, compute capability, SMs, kernels).
#[allow(clippy::type_complexity)]
fn reports() -> Vec<(&'static str, Option<&'static str>, &'static str, (u32, u32), u32, Vec<Expected>)> {
    vec![
        (
            "CudaProgramming__profiling_profiles_smemTranspose.ncu-rep",
            Some("Nsight Compute 2023.1.0.0 (build 32376155)"),
            "NVIDIA GeForce RTX 4090",
            (8, 9),
            128,
            vec![
                k("naiveGmem(", 1, 523712.0, Some(67157760.0 + 34424960.0)),
                k("copyGmem(", 1, 126784.0, Some(67108992.0 + 23825920.0)),
                k("transposeSmem(", 1, 145120.0, Some(67109120.0 + 29619456.0)),
                k("transposeSmemPad(", 1, 144000.0, Some(67112064.0 + 27807232.0)),
                k("transposeSmemUnrollPad(", 1, 142048.0, Some(67112320.0 + 41187968.0)),
            ],
        ),
        (
            "Twisty__profile.nsight-cuprof-report",
            None, // 2019.5 wrote no version record
            "NVIDIA GeForce GTX 1070 Ti",
            (6, 1),
            19,
            vec![
                k("twisty::FullExperimentRunnerOptimalPerturbOptimized_GPU_InitializeCurandState(", 1, 5952.0, None),
                k("twisty::FullExperimentRunnerOptimalPerturbOptimized_GPU_GeometryRandomKernel(", 1, 159322991488.0, None),
            ],
        ),
        (
            "cs599k__profile.ncu-rep",
            Some("Nsight Compute 2025.1.0.0 (build 35237751)"),
            "NVIDIA GH200 480GB",
            (9, 0),
            132,
            vec![
                k("void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<", 1, 777472.0, None),
                // 582176 + 586112 + 587456 + 584512 + 585728 + 587136 + 585056 + 586432 + 585344
                k("void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::silu_kernel", 9, 5269952.0, None),
            ],
        ),
        (
            "cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep",
            Some("Nsight Compute 2025.1.0.0 (build 35237751)"),
            "NVIDIA GH200 480GB",
            (9, 0),
            132,
            vec![
                k("void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<", 1, 142560.0, Some(19456.0 + 240869376.0)),
                // 153184 + 152000 ns; (268449024 + 245398784) + (268452352 + 244994560) bytes
                k("silu_kernel_non_strided", 2, 305184.0, Some(1027294720.0)),
            ],
        ),
        (
            "cuda-mlp-inference__report.ncu-rep",
            Some("Nsight Compute 2024.2.1.0 (build 34372528)"),
            "Tesla T4",
            (7, 5),
            40,
            vec![k("matrix_addition2D(float *, float *, float *, int, int)", 1, 52576.0, Some(9612288.0 + 4189344.0))],
        ),
        (
            "self-join-MiSTIC__profile.out.ncu-rep",
            Some("Nsight Compute 2021.2.2.0 (build 30282580)"),
            "NVIDIA A100-PCIE-40GB",
            (8, 0),
            108,
            // 7543142976 + 7813204256 + 7435364512 + 7129543872 ns;
            // 1604568293632 + 1463540630912 + 1481111571968 + 1896912317184 bytes
            vec![k("nodeCalculationsKernel(unsigned int *", 4, 29921255616.0, Some(6446132813696.0))],
        ),
    ]
}

fn check(file: &str, ds: &Dataset, tool: Option<&str>, device: &str, cc: (u32, u32), sms: u32, expected: &[Expected]) {
    assert_eq!(ds.files.len(), 1);
    assert_eq!(ds.files[0].format, "ncu-rep", "{file}");
    assert_eq!(ds.files[0].tool.as_deref(), tool, "{file}");
    assert_eq!(ds.kernels.len(), expected.len(), "{file}: kernels");
    for (kernel, want) in ds.kernels.iter().zip(expected) {
        assert!(kernel.name.starts_with(want.kernel), "{file}: {} should start with {}", kernel.name, want.kernel);
        assert_eq!(kernel.launches, want.launches, "{file}: {}", want.kernel);
        let t = kernel.counters.get(Counter::TimeS).unwrap_or_else(|| panic!("{file}: {} has no time", want.kernel));
        assert!((t - want.time_ns * 1e-9).abs() <= 1e-12 * t, "{file}: {} time {t} s, expected {} ns", want.kernel, want.time_ns);
        assert_eq!(kernel.counters.get(Counter::DramBytes), want.dram_bytes, "{file}: {} DRAM bytes", want.kernel);
    }
    let launches: u64 = expected.iter().map(|e| e.launches).sum();
    assert_eq!(ds.launches.len() as u64, launches, "{file}: launch records");
    // IDs are the results' 0-based indices, as `ncu --import … --csv` numbers them.
    assert_eq!(ds.launches.iter().map(|l| l.id).collect::<Vec<_>>(), (0..launches).map(Some).collect::<Vec<_>>(), "{file}");
    let main = ds.main_device().unwrap_or_else(|| panic!("{file}: no device"));
    assert_eq!(main.device.name.as_deref(), Some(device), "{file}");
    assert_eq!(main.device.compute_capability, Some(cc), "{file}");
    assert_eq!(main.device.arch, Some(format!("sm_{}{}", cc.0, cc.1)), "{file}");
    assert_eq!(main.device.sm_count, Some(sms), "{file}");
    assert_eq!(main.launches, launches, "{file}");
}

#[test]
fn every_sample_report_loads_with_the_values_nvidias_reader_gives() {
    for (file, tool, device, cc, sms, expected) in reports() {
        let ds = load(sample(&format!("ncu-rep/{file}")));
        check(file, &ds, tool, device, cc, sms, &expected);
        assert!(ds.warnings.iter().all(|w| !w.message.contains("incomplete")), "{file}: {:?}", ds.warnings);
    }
}

#[test]
fn reports_in_chunks_of_any_size_give_the_same_dataset() {
    for (file, ..) in reports() {
        let f = sample(&format!("ncu-rep/{file}"));
        let whole = load(f.clone());
        for chunk in [4096, 65_537, 4 << 20] {
            assert_eq!(load_chunked(&f, chunk), whole, "{file}, chunks of {chunk}");
        }
    }
    // Byte by byte, on the smallest full-set report.
    let f = sample("ncu-rep/cuda-mlp-inference__report.ncu-rep");
    assert_eq!(load_chunked(&f, 1), load(f));
}

#[test]
fn the_gh200_device_gives_its_clocks_and_memory() {
    // device__attribute_max_gpu_frequency_khz = 1980000, max_mem_frequency_khz = 2619000,
    // total_memory = 101468602368, l2_cache_size = 62914560, global_memory_bus_width = 6144.
    let ds = load(sample("ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep"));
    let d = &ds.main_device().expect("device").device;
    assert_eq!(d.max_sm_clock_hz, Some(1.98e9));
    assert_eq!(d.memory_clock_hz, Some(2.619e9));
    assert_eq!(d.memory_bytes, Some(101468602368.0));
    assert_eq!(d.l2_bytes, Some(62914560.0));
    assert_eq!(d.memory_bus_bits, Some(6144));
}

#[test]
fn detection_is_by_content_not_by_name() {
    let f = sample("ncu-rep/cuda-mlp-inference__report.ncu-rep");
    let renamed = load(SourceFile { name: "profile.csv".into(), bytes: f.bytes.clone() });
    assert_eq!(renamed.files[0].format, "ncu-rep");
    assert_eq!(renamed.kernels, load(f).kernels);
}

/// The fixture report made by `fixtures/ncu-rep/make_fixtures.py` (two kernels, the string
/// table in the second block with results, a later block without one); NVIDIA's reader
/// gives the same names and values for it.
fn check_fixture(ds: &Dataset) {
    assert_eq!(ds.files[0].format, "ncu-rep");
    assert_eq!(ds.files[0].tool.as_deref(), Some("Nsight Compute 2099.1.0.0 (build 1)"));
    let names: Vec<&str> = ds.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["scale(float *, int)", "void copy<float>(float *, const float *)"]);
    assert_eq!(ds.kernels[0].counters.get(Counter::TimeS), Some(1500.0e-9));
    assert_eq!(ds.kernels[0].counters.get(Counter::DramBytes), Some(4096.0 + 2048.0));
    assert_eq!(ds.kernels[1].counters.get(Counter::TimeS), Some(2500.0e-9));
    assert_eq!(ds.kernels[1].counters.get(Counter::DramBytes), Some(8192.0 + 8192.0));
    let d = &ds.main_device().expect("device").device;
    // The name from the first result, the SM count and compute capability from the session.
    assert_eq!((d.name.as_deref(), d.sm_count, d.compute_capability), (Some("NVIDIA Test GPU"), Some(12), Some((9, 0))));
}

#[test]
fn compressed_reports_read_as_the_plain_one() {
    let plain = load(fixture("two-kernels.ncu-rep"));
    check_fixture(&plain);
    for name in ["two-kernels.ncu-repz", "two-frames.ncu-repz"] {
        let f = fixture(name);
        check_fixture(&load(f.clone()));
        for chunk in [1, 3, 17, 100] {
            assert_eq!(load_chunked(&f, chunk).kernels, plain.kernels, "{name}, chunks of {chunk}");
        }
    }
}

#[test]
fn a_cut_report_keeps_what_was_read_and_says_so() {
    let f = sample("ncu-rep/cs599k__profile.ncu-rep");
    // Cut in the middle of the file: some of the 10 results are complete.
    let cut = SourceFile { name: f.name.clone(), bytes: f.bytes[..f.bytes.len() / 2].to_vec() };
    let ds = load(cut);
    let read: u64 = ds.kernels.iter().map(|k| k.launches).sum();
    assert!(read > 0 && read < 10, "{read} launches");
    let w = ds.warnings.iter().find(|w| w.message.contains("incomplete")).expect("a warning for the cut");
    assert!(w.message.contains(&format!("the {read} kernel results before it were read")), "{}", w.message);
    // Cut before the first result: an error naming what the file is.
    let early = SourceFile { name: "early.ncu-rep".into(), bytes: f.bytes[..2000].to_vec() };
    let e = load_dataset(&[early]).unwrap_err();
    assert!(e.message.contains("before any kernel result"), "{}", e.message);
    assert!(e.message.contains("file format 7"), "{}", e.message);
}

#[test]
fn a_damaged_result_names_the_position_and_what_was_read() {
    let f = fixture("two-kernels.ncu-rep");
    let mut bytes = f.bytes.clone();
    // The second result's first metric key (tag 13, wire type 2 = 0x6A) becomes wire type 7,
    // which protobuf does not have.
    let second = bytes.windows(4).rposition(|w| w == b"copy").expect("second result");
    let key_at = second + bytes[second..].iter().position(|&b| b == 0x6A).expect("a metric key");
    bytes[key_at] = 0x6F;
    let e = load_dataset(&[SourceFile { name: "damaged.ncu-rep".into(), bytes }]).unwrap_err();
    assert_eq!(e.file, "damaged.ncu-rep");
    assert!(e.message.starts_with("at byte "), "{}", e.message);
    assert!(e.message.contains("result 2 is not a kernel result"), "{}", e.message);
    assert!(e.message.contains("1 results were read before it"), "{}", e.message);
}

/// ncu's console output: the 10 launches of the sample with their `Duration` rows (µs),
/// `Elapsed Cycles` and `SM Frequency` (GHz), in file order (read with awk on the file).
#[test]
fn console_text_lists_its_10_kernels_with_their_durations() {
    let f = sample("ncu/cs599k__silu_triton_silu-pytorch-ncu-report.txt");
    let ds = load(f.clone());
    assert_eq!(ds.files[0].format, "ncu-text");
    let durations_us = [777.95, 582.37, 582.05, 582.40, 580.64, 581.79, 581.82, 581.28, 581.63, 581.47];
    let cycles = [1187722.0, 849209.0, 866591.0, 865409.0, 867423.0, 871169.0, 867525.0, 863497.0, 865381.0, 864628.0];
    let clock_ghz = [1.52, 1.44, 1.48, 1.48, 1.48, 1.48, 1.48, 1.47, 1.48, 1.47];
    assert_eq!(ds.launches.len(), 10);
    for (i, l) in ds.launches.iter().enumerate() {
        assert_eq!(l.id, Some(i as u64));
        let expected = if i == 0 { "void unnamed>::distribution_elementwise_grid_stride_kernel<float, 4," } else { "void vectorized_elementwise_kernel<4, unnamed>::silu_kernel(" };
        assert!(l.kernel.starts_with(expected), "{i}: {}", l.kernel);
        let t = l.counters.get(Counter::TimeS).expect("duration");
        assert!((t - durations_us[i] * 1e-6).abs() < 1e-15, "{i}: {t}");
        assert_eq!(l.counters.get(Counter::Cycles), Some(cycles[i]));
        let hz = l.counters.get(Counter::ClockHz).expect("clock");
        assert!((hz - clock_ghz[i] * 1e9).abs() < 1e-3, "{i}: {hz}");
    }
    // Two kernels: 1 launch + 9 launches (582.37 + … + 581.47 = 5235.45 µs).
    assert_eq!(ds.kernels.len(), 2);
    assert_eq!((ds.kernels[0].launches, ds.kernels[1].launches), (1, 9));
    assert!((ds.kernels[1].counters.get(Counter::TimeS).expect("time") - 5235.45e-6).abs() < 1e-12);
    // The header lines say "Device 0, CC 9.0".
    assert_eq!(ds.main_device().expect("device").device.arch.as_deref(), Some("sm_90"));
    // The same text pasted (CRLF line ends, as some chat clients copy) reads the same.
    let pasted = String::from_utf8(f.bytes).expect("utf-8").replace('\n', "\r\n");
    let p = load(SourceFile { name: "pasted text".into(), bytes: pasted.into_bytes() });
    assert_eq!(p.kernels, ds.kernels);
}

/// FLOPs per precision (add + mul + 2 × fma; FP16 instructions are packed HADD2/HMUL2/HFMA2 of
/// two lanes each, so 2 × hadd + 2 × hmul + 4 × hfma, as Nsight Compute's half roofline counts
/// them) where the report has them. Full-set reports
/// store only per-cycle rates (`smsp__sass_thread_inst_executed_op_{f,d,h}{add,mul,fma}
/// _pred_on.sum.per_cycle_elapsed`); the expected counts are NVIDIA's reader's rate ×
/// `smsp__cycles_elapsed.avg` (or × `smsp__cycles_elapsed.avg.per_second` × duration in the
/// 2021.2 report, which stores no elapsed cycles), per launch, added here:
/// * silu v8, distribution kernel: ffma 135028736 → FP32 270057472; hfma 17031168 → FP16
///   68124672; FP64 0. `silu_kernel_non_strided`, each launch: fadd 134217728 + fmul
///   201326592 = FP32 335544320, hfma 4194304 → FP16 16777216.
/// * T4 `matrix_addition2D`: fadd 1000000.
/// * A100 `nodeCalculationsKernel`, 4 launches, dadd = dfma: 3 × (762560367952 +
///   750585508334 + 763204372498 + 736404728397) = 9038264931543 FP64.
/// * The other reports collect no FLOP metrics.
#[test]
fn flops_from_the_stored_rates_match_nvidias_reader() {
    use roofline_engine::domain::profile::Precision::{Fp16, Fp32, Fp64};
    let close = |got: Option<f64>, want: f64, what: &str| {
        let g = got.unwrap_or_else(|| panic!("{what}: no value"));
        assert!((g - want).abs() <= 1e-9 * want.abs().max(1.0), "{what}: {g}, expected {want}");
    };
    let ds = load(sample("ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep"));
    close(ds.kernels[0].flops(Fp32), 270057472.0, "distribution FP32");
    close(ds.kernels[0].flops(Fp16), 68124672.0, "distribution FP16");
    close(ds.kernels[0].flops(Fp64), 0.0, "distribution FP64");
    close(ds.kernels[1].flops(Fp32), 2.0 * 335544320.0, "silu FP32");
    close(ds.kernels[1].flops(Fp16), 2.0 * 16777216.0, "silu FP16");
    let ds = load(sample("ncu-rep/cuda-mlp-inference__report.ncu-rep"));
    close(ds.kernels[0].flops(Fp32), 1_000_000.0, "matrix_addition2D FP32");
    close(ds.kernels[0].flops(Fp64), 0.0, "matrix_addition2D FP64");
    let ds = load(sample("ncu-rep/self-join-MiSTIC__profile.out.ncu-rep"));
    close(ds.kernels[0].flops(Fp64), 9038264931543.0, "nodeCalculationsKernel FP64");
    close(ds.kernels[0].flops(Fp32), 0.0, "nodeCalculationsKernel FP32");
    for file in ["CudaProgramming__profiling_profiles_smemTranspose.ncu-rep", "Twisty__profile.nsight-cuprof-report", "cs599k__profile.ncu-rep"] {
        let ds = load(sample(&format!("ncu-rep/{file}")));
        assert!(ds.kernels.iter().all(|k| k.flops(Fp32).is_none() && k.flops(Fp64).is_none()), "{file}");
    }
}

/// The GH200 full-set report chooses its own machine: Hopper, at the SM clock it ran at
/// (Σcycles / Σ(cycles / clock) over its 3 launches of `sm__cycles_elapsed.avg` and
/// `.per_second` = 1474285089.3 Hz), with the report's own peaks: FP32 = 2 ×
/// `sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained` (16896 per cycle) ×
/// that clock = 4.98189e13 FLOP/s. Both kernels get hierarchical and instruction roofline
/// points against it.
#[test]
fn the_gh200_full_set_report_is_drawn_against_its_own_hopper_machine() {
    use roofline_engine::choice::{choose, ClockChoice, Chosen};
    use roofline_engine::model::ComputeKind;
    let ds = load(sample("ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep"));
    let measured = ds.measured_sm_clock_hz().expect("measured clock");
    assert!((measured - 1474285089.3151062).abs() < 1.0, "{measured}");
    let choice = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
    assert_eq!(choice.chosen, Chosen::Profile);
    let m = &choice.machine;
    assert_eq!(m.arch.as_deref(), Some("sm_90"), "{}", m.name);
    assert_eq!(m.clock_hz.map(|c| (c - measured).abs() < 1.0), Some(true), "{:?}", m.clock_hz);
    let fp32 = m.compute_ceiling(ComputeKind::Fp32).expect("FP32 roof").flops_per_s;
    assert!((fp32 - 16896.0 * 2.0 * 1474285089.3151062).abs() < 1e-6 * fp32, "{fp32}");
    // DRAM: `dram__bytes.sum.peak_sustained` (1536 bytes per DRAM cycle) ×
    // `dram__cycles_elapsed.avg.per_second` (2617994762 Hz in the first result; the three
    // results differ by under 0.5%).
    let dram = m.memory_level(roofline_engine::model::Level::Dram).expect("DRAM roof").bytes_per_s;
    assert!((dram - 1536.0 * 2617994762.4392066).abs() < 5e-3 * dram, "{dram}");
    let r = roofline_engine::report::analyze_choice(&ds, Some(&choice));
    for k in &r.kernels {
        assert!(!k.points.is_empty(), "{}: no hierarchical points", k.name);
        assert!(!k.instruction.points.is_empty(), "{}: no instruction points", k.name);
    }
}

/// Regression (fuzz target `import_ncu_rep`, first minute): a zstd frame of empty raw blocks
/// and then a block announcing 1 MB (over zstd's 128 KiB limit) gave the error at a different
/// byte whole (11) and in chunks (119). The position is now where the decoder stopped.
#[test]
fn regression_zstd_error_position_does_not_depend_on_chunks() {
    let mut bytes = vec![0x28, 0xB5, 0x2F, 0xFD, 0x9D, 0x0F];
    bytes.extend_from_slice(&[0; 124]);
    bytes.extend_from_slice(&[0x86, 0x5B, 0x62, 0x35, 0x40, 0x93, 0x0E, 0xC3]);
    let whole = load_dataset(&[SourceFile { name: "z.ncu-repz".into(), bytes: bytes.clone() }]).unwrap_err();
    assert!(whole.message.contains("not decodable"), "{}", whole.message);
    for chunk in [1, 7, 60] {
        let mut b = DatasetBuilder::new();
        let e = bytes.chunks(chunk).try_for_each(|c| b.push_chunk("z.ncu-repz", c)).and_then(|()| b.finish().map(|_| ())).unwrap_err();
        assert_eq!(e, whole, "chunks of {chunk}");
    }
}

/// A file format version never seen (the file header says 8, every known report 7): what
/// was read is kept, with a warning naming the version; an unreadable one names it in the
/// error.
#[test]
fn an_unknown_format_version_is_named() {
    let mut bytes = fixture("two-kernels.ncu-rep").bytes;
    assert_eq!(&bytes[8..10], &[0x08, 0x07], "file header: field 1 = 7");
    bytes[9] = 8;
    let ds = load(SourceFile { name: "future.ncu-rep".into(), bytes: bytes.clone() });
    assert_eq!(ds.kernels.len(), 2);
    let w = ds.warnings.iter().find(|w| w.message.contains("version 8")).expect("a warning");
    assert!(w.message.contains("2 kernel results were read"), "{}", w.message);
    assert!(w.message.contains("Nsight Compute 2099.1.0.0 (build 1)"), "{}", w.message);
    // Nothing readable after the header: the error names the version.
    bytes.truncate(10);
    let e = load_dataset(&[SourceFile { name: "future.ncu-rep".into(), bytes }]).unwrap_err();
    assert!(e.message.contains("file format 8"), "{}", e.message);
}

/// A report without FLOP metrics (default sections) says how to collect a report that has
/// them, with the options before the application.
#[test]
fn a_report_lacking_metrics_hints_at_a_full_set_report() {
    let ds = load(sample("ncu-rep/cs599k__profile.ncu-rep"));
    let w = ds.warnings.iter().find(|w| w.gap.as_ref().is_some_and(|g| !g.missing.is_empty())).expect("a warning");
    let hint = w.hint.as_deref().unwrap_or("");
    assert!(hint.starts_with("ncu --set full -o report ./app; or only the missing metrics: ncu --metrics "), "{hint}");
    assert!(hint.ends_with(" -o report ./app"), "{hint}");
}
