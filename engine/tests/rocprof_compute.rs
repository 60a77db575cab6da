//! rocprof-compute (Omniperf) workloads of every layout (issue 41, part 2): the MI350 pair of
//! ROCm 6.5 (wide `pmc_perf.csv`, `sysinfo.csv` version 3), the MI300X and MI200 samples, a
//! workload collected through rocpd (long `pmc_perf.csv`, counters in passes that each re-ran
//! the kernel), `sysinfo.csv` of every layout, the GPU index joined to the sysinfo device, and
//! `roofline.csv` as a machine of its own whatever the files' order.
//!
//! Real samples are read in place from `shared/samples/rocprof/`; the fixtures in
//! `tests/fixtures/` are described in their README. Expected values were computed by hand
//! (python3 on the files' numbers); each assertion says how.

use roofline_engine::choice::{choose, ClockChoice, Chosen};
use roofline_engine::domain::counters::Counter;
use roofline_engine::domain::profile::Precision;
use roofline_engine::domain::{Device, Vendor};
use roofline_engine::model::{catalogue, ComputeKind, Level};
use roofline_engine::{load_dataset, Dataset, KernelProfile, SourceFile};

mod samples;
use samples::{read, sample};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const MI350_PMC: &str = "rocprof/rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_pmc_perf.csv";
const MI350_SYS: &str = "rocprof/rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_sysinfo.csv";
const MI300X_PMC: &str = "rocprof/omniperf__tests_workloads_vcopy_MI300X_A1_pmc_perf.csv";
const MI200_PMC: &str = "rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv";
const MI200_SYS: &str = "rocprof/omniperf__tests_workloads_vcopy_MI200_sysinfo.csv";
const MI200_ROOF: &str = "rocprof/omniperf__tests_workloads_vcopy_MI200_roofline.csv";
const VCOPY: &str = "vecCopy(double*, double*, double*, int, int)";

fn fixture(name: &str) -> SourceFile {
    read(&format!("{FIXTURES}/{name}"))
}

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

fn text(name: &str, body: &str) -> SourceFile {
    SourceFile { name: name.into(), bytes: body.as_bytes().to_vec() }
}

fn vcopy(ds: &Dataset) -> &KernelProfile {
    ds.kernels.iter().find(|k| k.name == VCOPY).unwrap_or_else(|| panic!("no {VCOPY}"))
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-30)
}

fn only_device(ds: &Dataset) -> &Device {
    assert_eq!(ds.devices.runs.len(), 1, "{:?}", ds.devices.runs.iter().map(|r| r.device.describe()).collect::<Vec<_>>());
    &ds.devices.runs[0].device
}

#[test]
fn mi350_pmc_perf_per_kernel_values() {
    let ds = load(&[sample(MI350_PMC)]);
    let k = vcopy(&ds);
    assert_eq!(k.launches, 3, "3 dispatches, one row each");
    // End_Timestamp − Start_Timestamp: 1248227792639148.5 − …617386.5 = 21762, …220373.0 −
    // …203453.2 = 16919.8, …718203.8 − …701339.8 = 16864.0; Σ 55545.8 ns (f64 holds these
    // 16-digit stamps to 0.25 ns: 55545.75).
    assert!(close(k.time_s().unwrap(), 55_545.8e-9, 1e-5), "{:?}", k.time_s());
    // HBM, per dispatch (rocprof-compute's gfx950 formula; TCC_BUBBLE_sum 0, RDREQ_32B 0,
    // WRREQ_64B = WRREQ = 131072): 64 × TCC_EA0_RDREQ_sum + 64 × 131072 = 64 × 65640 + 8388608
    // = 12589568, then 64 × 65612 + 8388608 = 12587776 twice: Σ 37765120.
    assert_eq!(k.counters.get(Counter::DramBytes), Some(37_765_120.0));
    // vL1D → L2, per dispatch: 128 × TCP_TCC_READ_REQ_sum 65536 + 64 × TCP_TCC_WRITE_REQ_sum
    // 131072 (atomics 0) = 16777216 (8 MiB read + 8 MiB written); × 3 = 50331648. (Before
    // issue 41: 128 × (65536 + 131072) × 3 = 75497472, the 64-byte writes costed as 128.)
    assert_eq!(k.counters.get(Counter::L2Bytes), Some(50_331_648.0));
    // vL1D: 128 × TCP_TOTAL_CACHE_ACCESSES_sum 524288 × 3 = 201326592.
    assert_eq!(k.counters.get(Counter::L1Bytes), Some(201_326_592.0));
    // MI350's per-type MFMA counters were collected and are zero: SQ_INSTS_VALU_MFMA_MOPS_F8
    // (FP8 matrix) and _F6F4 (FP6 and FP4 together: matrix FLOPs of no type).
    assert_eq!(k.counters.get(Counter::MatrixFp8), Some(0.0));
    assert_eq!(k.counters.get(Counter::TensorFlops), Some(0.0));
    assert_eq!(k.flops(Precision::Fp64), Some(0.0));
    assert!(ds.warnings.is_empty(), "the TCC_EA0_ counters name the generation: {:?}", ds.warnings);
}

#[test]
fn mi350_sysinfo_version_3_is_the_device_of_the_table() {
    // sysinfo v3: gpu_series MI350, gpu_model MI350 (chip id 30112: the MI350X), gpu_arch
    // gfx950, cu_per_gpu 128, gpu_l2 4096 KiB, max_sclk 0 and max_mclk empty (unknown).
    let ds = load(&[sample(MI350_SYS)]);
    assert_eq!(ds.files[0].format, "rocprof-compute-sysinfo");
    assert!(ds.machine.is_none(), "a device, not a machine");
    let d = only_device(&ds);
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count, d.vendor), (Some("MI350X"), Some("gfx950"), Some(128), Some(Vendor::Amd)));
    assert_eq!((d.l2_bytes, d.max_sm_clock_hz, d.memory_clock_hz), (Some(4096.0 * 1024.0), None, None));
    // With the table, in either order: one device (GPU_ID 0 is the MI350X), its 3 launches
    // and 55.5 µs, and the catalogue's MI350X judges.
    for files in [vec![sample(MI350_PMC), sample(MI350_SYS)], vec![sample(MI350_SYS), sample(MI350_PMC)]] {
        let ds = load(&files);
        let d = only_device(&ds);
        assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("MI350X"), Some("gfx950"), Some(128)));
        assert_eq!(ds.devices.runs[0].launches, 3);
        let c = choose(&ds, None, ClockChoice::Measured).unwrap().expect("a machine");
        assert_eq!(c.chosen, Chosen::Profile);
        assert!(c.machine.id.starts_with("mi350x"), "{}", c.machine.id);
        assert_eq!(c.machine.arch.as_deref(), Some("gfx950"));
        // HBM3E 8 TB/s does not scale with CUs or clock.
        assert_eq!(c.machine.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(8000e9));
        assert!(c.machine.compute_ceiling(ComputeKind::Fp64).is_some(), "compute is assessed");
    }
}

#[test]
fn mi300x_wide_pmc_perf_joins_its_sysinfo() {
    let pmc = load(&[sample(MI300X_PMC)]);
    let k = vcopy(&pmc);
    assert_eq!(k.launches, 3);
    // Excel-rounded timestamps (8.1097E+14 both): no time.
    assert_eq!(k.time_s(), None);
    // HBM per dispatch: 128 × TCC_BUBBLE_sum 65536 + 64 × (TCC_EA0_RDREQ_sum − 65536 − 0) + 64
    // × TCC_EA0_WRREQ_64B_sum 131072: RDREQ 65775, 65763, 65758 → 8388608 × 2 × 3 + 64 × (239
    // + 227 + 222) = 50331648 + 44032 = 50375680.
    assert_eq!(k.counters.get(Counter::DramBytes), Some(50_375_680.0));
    // L2: (128 × 65536 + 64 × 131072) × 3 = 50331648 (was 75497472).
    assert_eq!(k.counters.get(Counter::L2Bytes), Some(50_331_648.0));
    // GPU_ID 2 and the v3 sysinfo of an MI300X (rocprof-compute's rocpd vcopy workload,
    // fixture): one device, MI300X_A1, gfx942, 304 CUs, max_sclk 2100 → the catalogue MI300X.
    let sys = fixture("rocprof-compute-sysinfo-v3-mi300x.csv");
    for files in [vec![sample(MI300X_PMC), sys.clone()], vec![sys.clone(), sample(MI300X_PMC)]] {
        let ds = load(&files);
        let d = only_device(&ds);
        assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count, d.max_sm_clock_hz), (Some("MI300X_A1"), Some("gfx942"), Some(304), Some(2100e6)));
        let c = choose(&ds, None, ClockChoice::Measured).unwrap().expect("a machine");
        assert_eq!((c.chosen, c.machine.id.as_str()), (Chosen::Profile, "mi300x"));
    }
}

#[test]
fn rocpd_long_pmc_perf_times_one_pass_per_dispatch() {
    // Rows of rocprof-compute's MI300X rocpd vcopy workload (fixture: every pass block's first
    // row and the counters read): 3 dispatches, each counted in 12 passes that re-ran the
    // kernel under their own timestamps.
    let ds = load(&[fixture("rocprof-compute-rocpd-pmc_perf-mi300x.csv")]);
    assert_eq!(ds.files[0].format, "rocprofv3-counters");
    let k = vcopy(&ds);
    assert_eq!(k.launches, 3, "dispatches, not passes × dispatches (36)");
    // Mean pass duration: dispatch 1: (8653 + 8613 + 8532 + 6690 + 8052 + 8853 + 8533 + 7291
    // + 9574 + 7411 + 7251 + 8052) / 12 = 97505 / 12 = 8125.4167 ns; dispatch 2: 75074 / 12 =
    // 6256.1667; dispatch 3: 75073 / 12 = 6256.0833; Σ 20637.667 ns (the sum over passes,
    // 247652 ns, is 12× this).
    assert!(close(k.time_s().unwrap(), 20_637.666_666_7e-9, 1e-9), "{:?}", k.time_s());
    // HBM, as for the wide table: 128 × 65536 + 64 × (RDREQ − 65536) + 64 × 131072 with RDREQ
    // 65757, 65704, 65688: 16791360 + 16787968 + 16786944 = 50366272.
    assert_eq!(k.counters.get(Counter::DramBytes), Some(50_366_272.0));
    assert_eq!(k.counters.get(Counter::L2Bytes), Some(50_331_648.0));
    assert_eq!(k.counters.get(Counter::L1Bytes), Some(201_326_592.0));
    assert_eq!(k.flops(Precision::Fp64), Some(0.0));
    // GPU_ID 2, joined to the rocpd workload's own sysinfo (v3, MI300X_A1).
    let ds = load(&[fixture("rocprof-compute-rocpd-pmc_perf-mi300x.csv"), fixture("rocprof-compute-sysinfo-v3-mi300x.csv")]);
    assert_eq!(only_device(&ds).name.as_deref(), Some("MI300X_A1"));
}

#[test]
fn a_counter_in_two_passes_is_read_once() {
    // One dispatch, two passes of 100 and 300 ns; TCP_TCC_WRITE_REQ_sum appears in both
    // (10 then 99): the first is read. Mean time 200 ns; L2 = 64 × 10 (CDNA 3 by its
    // TCC_EA0_ counter).
    let csv = "GPU_ID,Dispatch_ID,Kernel_Name,Start_Timestamp,End_Timestamp,Counter_Name,Counter_Value\n\
               2,1,k,1000,1100,TCP_TCC_WRITE_REQ_sum,10\n\
               2,1,k,1000,1100,TCC_EA0_WRREQ_sum,0\n\
               2,1,k,5000,5300,TCP_TCC_WRITE_REQ_sum,99\n";
    let ds = load(&[text("pmc_perf.csv", csv)]);
    let k = &ds.kernels[0];
    assert_eq!(k.launches, 1);
    assert!(close(k.time_s().unwrap(), 200e-9, 1e-12));
    assert_eq!(k.counters.get(Counter::L2Bytes), Some(640.0));
}

#[test]
fn sysinfo_layouts_all_read() {
    let device = |f: SourceFile| only_device(&load(&[f])).clone();
    // Omniperf 1.x (no version column, camel case): gpu_soc gfx90a, numCU 104, L2 8192 KiB,
    // sclk 1700, mclk 1600 MHz, name mi200.
    let d = device(fixture("rocprof-compute-sysinfo-legacy-mi200.csv"));
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("MI200"), Some("gfx90a"), Some(104)));
    assert_eq!((d.l2_bytes, d.max_sm_clock_hz, d.memory_clock_hz), (Some(8192.0 * 1024.0), Some(1700e6), Some(1600e6)));
    // Version 1: MI100, gfx908, cu_per_gpu 120, gpu_l2 8192, max_sclk 1502, max_mclk 1200.
    let d = device(fixture("rocprof-compute-sysinfo-v1-mi100.csv"));
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("MI100"), Some("gfx908"), Some(120)));
    assert_eq!((d.l2_bytes, d.max_sm_clock_hz, d.memory_clock_hz), (Some(8192.0 * 1024.0), Some(1502e6), Some(1200e6)));
    // Version 2 (the MI200 sample): gfx90a, 104 CUs, 1700/1600 MHz.
    let d = device(sample(MI200_SYS));
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count, d.max_sm_clock_hz), (Some("MI200"), Some("gfx90a"), Some(104), Some(1700e6)));
    // Version 3: MI300X_A1, gfx942, 304 CUs, gpu_l2 4096, max_sclk 2100, max_mclk empty.
    let d = device(fixture("rocprof-compute-sysinfo-v3-mi300x.csv"));
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("MI300X_A1"), Some("gfx942"), Some(304)));
    assert_eq!((d.l2_bytes, d.max_sm_clock_hz, d.memory_clock_hz), (Some(4096.0 * 1024.0), Some(2100e6), None));
}

#[test]
fn a_sysinfo_without_its_row_or_gfx_target_is_an_error_with_its_line() {
    let header = "workload_name,command,ip_blocks,timestamp,version,gpu_series,gpu_model,gpu_arch,cu_per_gpu\n";
    let e = load_dataset(&[text("sysinfo.csv", header)]).expect_err("no row");
    assert_eq!((e.file.as_str(), e.line), ("sysinfo.csv", Some(2)));
    assert!(e.message.contains("no data row"), "{}", e.message);
    let e = load_dataset(&[text("sysinfo.csv", &format!("{header}w,c,SQ,t,3,MI300,MI300X_A1,,304\n"))]).expect_err("no gfx target");
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("expected the GPU's gfx target in column \"gpu_arch\""), "{}", e.message);
}

#[test]
fn a_workload_folder_is_one_run_in_any_order() {
    // pmc_perf.csv + sysinfo.csv + roofline.csv of the MI200 vcopy workload, in all six
    // orders: one device (GPU_ID 2 = MI200, gfx90a, 104 CUs), one kernel of 3 launches and
    // 52320 ns (Σ End − Start), and roofline.csv's machine with its one DRAM level, HBMBw of
    // device 0, 1388.9302 GB/s (not sysinfo's theoretical 1638.4).
    let files = [sample(MI200_PMC), sample(MI200_SYS), sample(MI200_ROOF)];
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for order in orders {
        let ds = load(&order.map(|i| files[i].clone()));
        let d = only_device(&ds);
        assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("MI200"), Some("gfx90a"), Some(104)), "{order:?}");
        let k = vcopy(&ds);
        assert_eq!(k.launches, 3);
        assert!(close(k.time_s().unwrap(), 52_320e-9, 1e-12));
        let c = choose(&ds, None, ClockChoice::Measured).unwrap().expect("a machine");
        assert_eq!((c.chosen, c.machine.id.as_str()), (Chosen::File, "rocprof-compute-device-0"), "{order:?}");
        let dram: Vec<f64> = c.machine.memory.iter().filter(|l| l.level == Level::Dram).map(|l| l.bytes_per_s).collect();
        assert_eq!(dram, [1388.9302e9], "{order:?}");
    }
}

#[test]
fn gpus_known_by_index_become_the_described_gpu_whichever_file_comes_first() {
    // A rocprof-compute table of two GPUs (GPU_ID 2 and 3, 1 µs each) and the MI200 sysinfo:
    // both are MI200s (nvprof's "Tesla V100 (0)" and "(1)" are one device likewise), 2 launches.
    let table = "Dispatch_ID,Kernel_Name,GPU_ID,Start_Timestamp,End_Timestamp\n0,k,2,0,1000\n1,k,3,0,1000\n";
    for files in [vec![text("pmc_perf.csv", table), sample(MI200_SYS)], vec![sample(MI200_SYS), text("pmc_perf.csv", table)]] {
        let ds = load(&files);
        let d = only_device(&ds);
        assert_eq!((d.name.as_deref(), d.arch.as_deref()), (Some("MI200"), Some("gfx90a")));
        assert_eq!(ds.devices.runs[0].launches, 2);
        assert!(close(ds.devices.runs[0].kernel_time_s, 2e-6, 1e-12));
    }
    // A GPU of another architecture is not joined: rocprofv3's agent info says GPU 1 is a
    // gfx900, the sysinfo a gfx90a.
    let ds = load(&[read(&format!("{FIXTURES}/rocprofv3-agent-info.csv")), sample(MI200_SYS)]);
    assert_eq!(ds.devices.runs.len(), 2);
}

#[test]
fn bytes_per_l1_access_assumed_without_the_generation_are_warned_of() {
    // No TCC_EA_/TCC_EA0_ counter: 64 bytes per access assumed (2 × 64), and a warning.
    let table = "Dispatch_ID,Kernel_Name,GPU_ID,TCP_TOTAL_CACHE_ACCESSES_sum,TCP_TCC_READ_REQ_sum\n0,k,0,2,3\n";
    let ds = load(&[text("SQ_TCP.csv", table)]);
    let k = &ds.kernels[0];
    assert_eq!((k.counters.get(Counter::L1Bytes), k.counters.get(Counter::L2Bytes)), (Some(128.0), Some(192.0)));
    let assumed: Vec<&str> = ds.warnings.iter().map(|w| w.message.as_str()).filter(|m| m.contains("assume 64 bytes per vL1D access")).collect();
    assert_eq!(assumed.len(), 1, "{:?}", ds.warnings);
    // With a CDNA 2 counter: 64 bytes known, no warning.
    let table = "Dispatch_ID,Kernel_Name,GPU_ID,TCP_TOTAL_CACHE_ACCESSES_sum,TCC_EA_RDREQ_sum\n0,k,0,2,0\n";
    let ds = load(&[text("pmc_perf.csv", table)]);
    assert_eq!(ds.kernels[0].counters.get(Counter::L1Bytes), Some(128.0));
    assert!(!ds.warnings.iter().any(|w| w.message.contains("assume 64 bytes")), "{:?}", ds.warnings);
}

#[test]
fn sized_read_counters_cost_each_read_at_its_size() {
    // gfx950's TCC_EA0_RDREQ_{32B,64B,128B}: 32 × 1 + 64 × 2 + 128 × 3 = 544 read bytes,
    // + 64 × 4 written (WRREQ_64B = WRREQ = 4) = 800.
    let table = "Dispatch_ID,Kernel_Name,GPU_ID,TCC_EA0_RDREQ_sum,TCC_EA0_RDREQ_32B_sum,TCC_EA0_RDREQ_64B_sum,TCC_EA0_RDREQ_128B_sum,TCC_BUBBLE_sum,TCC_EA0_WRREQ_sum,TCC_EA0_WRREQ_64B_sum\n\
                 0,k,0,6,1,2,3,0,4,4\n";
    let ds = load(&[text("pmc_perf.csv", table)]);
    assert_eq!(ds.kernels[0].counters.get(Counter::DramBytes), Some(800.0));
}

#[test]
fn cdna2_fp32_roof_is_the_packed_rate() {
    // MI250X data sheet: packed FP32 95.7 TF (220 CUs × 256 × 1.7 GHz); the unpacked "FP32
    // vector" 47.9 is the no-FMA line (95.7 / 2 = 47.85). MI210: 45.3 packed.
    let fp32 = |m: &roofline_engine::model::Machine, name: &str| m.compute.iter().find(|c| c.name == name).map(|c| c.flops_per_s);
    let m = catalogue::mi250x();
    assert_eq!(m.compute_ceiling(ComputeKind::Fp32).map(|c| c.flops_per_s), Some(95.7e12));
    assert_eq!(fp32(&m, "FP32 no-FMA"), Some(47.85e12));
    assert_eq!(catalogue::mi210().with_basis(roofline_engine::model::Basis::Theoretical).compute_ceiling(ComputeKind::Fp32).map(|c| c.flops_per_s), Some(45.3e12));
    // A gfx90a device not in the catalogue: 104 CUs × 256 × 1.7 GHz = 45.2608 TF packed FP32.
    let d = Device { arch: Some("gfx90a".into()), sm_count: Some(104), max_sm_clock_hz: Some(1700e6), ..Device::default() };
    let derived = catalogue::derived_machine(&d).expect("gfx90a rates");
    assert!(close(derived.compute_ceiling(ComputeKind::Fp32).unwrap().flops_per_s, 45.2608e12, 1e-9));
}

#[test]
fn the_mi350x_entry() {
    // 256 CUs × 2.2 GHz: FP64 128/CU/clk = 72.09 TF, FP16 matrix 4096 = 2306.9 TF, FP4 16384
    // = 9227.5 TF; 8 TB/s.
    let m = catalogue::mi350x();
    assert_eq!((m.arch.as_deref(), m.sm_count, m.clock_hz), (Some("gfx950"), Some(256), Some(2200e6)));
    assert!(close(m.compute_ceiling(ComputeKind::Fp64).unwrap().flops_per_s, 256.0 * 128.0 * 2.2e9, 1e-3));
    assert!(close(m.matrix_ceiling(roofline_engine::domain::DataType::Fp16).unwrap().flops_per_s, 256.0 * 4096.0 * 2.2e9, 1e-4));
    assert!(close(m.matrix_ceiling(roofline_engine::domain::DataType::Fp4).unwrap().flops_per_s, 256.0 * 16384.0 * 2.2e9, 1e-4));
    assert_eq!(m.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(8000e9));
}
