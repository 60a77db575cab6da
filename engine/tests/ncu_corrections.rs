//! Nsight Compute import corrections of issue 42 ("Roofs of the silicon that ran: every byte
//! and clock counted as the hardware does"), on the real samples (read in place from
//! `../shared/samples/`) and fixtures. Expected values are computed by hand in the comments
//! from the files' own metrics (dumped with `cargo run -p roofline-engine --features ncu-rep
//! --example ncu_rep_dump -- FILE`).

mod samples;

use roofline_engine::domain::Counter;
use roofline_engine::{load_dataset, Dataset, SourceFile};
use samples::sample;

fn load(files: Vec<SourceFile>) -> Dataset {
    load_dataset(&files).unwrap_or_else(|e| panic!("{e:?}"))
}

fn kernel<'a>(ds: &'a Dataset, prefix: &str) -> &'a roofline_engine::KernelProfile {
    ds.kernels.iter().find(|k| k.name.starts_with(prefix)).unwrap_or_else(|| panic!("no kernel {prefix}"))
}

const SILU: &str = "ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep";

/// Every byte that reaches DRAM passes through L2, so a cache level reads at least the DRAM's
/// bytes. The GH200 full-set report has no `lts__t_bytes.sum`; its L2 traffic is the sectors
/// L1/TEX sent the L2 per operation (`lts__t_sectors_srcunit_tex_op_{read,write,atom,red}.sum`,
/// the sectors behind nvprof's `l2_tex_{read,write}_transactions` in Nsight Compute's CLI
/// guide, "nvprof Metric Comparison") × 32 bytes:
/// * `distribution_elementwise_grid_stride_kernel` (writes random numbers): read 0 + write
///   8388608 + atom 0 + red 0 sectors = 268435456 bytes, against DRAM 19456 read + 240869376
///   written = 240888832 bytes. Before (L2-to-SM bytes only, `derived__lts__lts2xbar_bytes`
///   4392592592.59 B/s × 142560 ns) it was 626208 bytes: 0.3% of the DRAM's.
/// * `silu_kernel_non_strided`, 2 launches of read 8388608 + write 8388608 sectors each:
///   2 × 16777216 × 32 = 1073741824 bytes, against DRAM 268449024 + 245398784 + 268452352 +
///   244994560 = 1027294720. Before: 1756349070399 B/s × 153184 ns + 1769352631579 B/s ×
///   152000 ns = 537986176 bytes (the reads).
#[test]
fn hopper_full_set_l2_bytes_count_reads_writes_atomics_and_reductions() {
    let ds = load(vec![sample(SILU)]);
    let l2 = |k: &str| kernel(&ds, k).counters.get(Counter::L2Bytes);
    let dram = |k: &str| kernel(&ds, k).counters.get(Counter::DramBytes);
    let dist = "void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel";
    assert_eq!(l2(dist), Some(8388608.0 * 32.0));
    assert_eq!(dram(dist), Some(19456.0 + 240869376.0));
    assert_eq!(l2("silu_kernel_non_strided"), Some(2.0 * 16777216.0 * 32.0));
    assert_eq!(dram("silu_kernel_non_strided"), Some(1027294720.0));
    for k in &ds.kernels {
        let (l2, dram) = (k.counters.get(Counter::L2Bytes), k.counters.get(Counter::DramBytes));
        assert!(l2.zip(dram).is_some_and(|(l2, dram)| l2 >= dram), "{}: L2 {l2:?} < DRAM {dram:?}", k.name);
    }
    // The L2 roof these bytes meet is the report's `derived__lts__lts2xbar_bytes.sum.
    // peak_sustained`, 6144 bytes per L2 cycle: the L1/TEX sectors' own peak, 2 per slice per
    // cycle (`lts__t_sectors_srcunit_tex.avg.peak_sustained`) × 96 slices
    // (`lts__cycles_elapsed.sum` 25009920 ÷ `.avg` 260520) × 32 bytes.
    let peaks = ds.main_device().and_then(|d| d.device.peaks.clone()).expect("the report's peaks");
    assert_eq!(peaks.l2_bytes_per_cycle, Some(2.0 * (25009920.0 / 260520.0) * 32.0));
}

/// The L2 runs on its own clock: `lts__cycles_elapsed.avg.per_second` per launch, the
/// launch-weighted mean per kernel as for the SM clock. GH200 silu report: the distribution
/// kernel's one launch 1703072390.5723906 Hz; the silu kernel's two (1700699811.9908082 +
/// 1700638157.894737) / 2 = 1700668984.9427726 Hz, above its SM clock (≈ 1.47 GHz).
#[test]
fn the_l2_clock_is_carried_per_kernel() {
    let ds = load(vec![sample(SILU)]);
    let hz = |k: &str| kernel(&ds, k).counters.get(Counter::L2ClockHz);
    assert_eq!(hz("void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel"), Some(1703072390.5723906));
    let silu = hz("silu_kernel_non_strided").expect("the silu kernel's L2 clock");
    assert!((silu - 1700668984.9427726).abs() < 1e-3, "{silu}");
    assert_eq!(kernel(&ds, "silu_kernel_non_strided").l2_clock_hz(), Some(silu));
}

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// A details page without `--print-units base` that has both the SpeedOfLight section's
/// "Duration" (142.18 us) and `--metrics gpu__time_duration.sum` (142,176 ns) of one launch
/// (fixtures/ncu-issue42/duration-label-and-metric.details.csv; fixtures/README.md): one
/// duration named twice. The launch takes 142176 ns, the exact metric row, not their sum
/// (142.18 us + 142176 ns = 284.356 us, the RTX 5090 kernel of issue 42 at twice its time).
#[test]
fn a_duration_label_and_its_metric_count_once() {
    let ds = load(vec![samples::read(&format!("{FIXTURES}/ncu-issue42/duration-label-and-metric.details.csv"))]);
    assert_eq!(ds.kernels.len(), 1);
    assert_eq!(ds.kernels[0].launches, 1);
    let t = ds.kernels[0].counters.get(Counter::TimeS).expect("a time");
    assert!((t - 142176e-9).abs() < 1e-18, "{t}");
    // The label alone (the real page the fixture was made from) still gives the time: 142.18 us.
    let ds = load(vec![samples::read(&format!("{FIXTURES}/ncu-hopper/h200/simt-boost.details.csv"))]);
    let t = kernel(&ds, "fma_fp32").counters.get(Counter::TimeS).expect("a time");
    assert!((t - 142.18e-6).abs() < 1e-15, "{t}");
}

/// The details page of two launches (h200/simt-boost.details.csv, real) and the
/// `--section SpeedOfLight_RooflineChart --print-details all` export of the same launches,
/// which has one more column ("Body Item Label") and repeats the clocks under each body item
/// (fixtures/ncu-issue42/roofline-chart-body-items.details.csv). Both give each launch its SM
/// clock, "SM Frequency" 1.98 GHz: before, that shared counter made the second file another run
/// of the application (2 launches per kernel, times unchanged, launch counts doubled). The same
/// ID, kernel and clock are one launch: 1 launch per kernel, its time (142.18 us and 66.88 us,
/// the details page's "Duration") and clock (1.98e9 Hz) as the details page has them.
#[test]
fn a_roofline_chart_export_joins_the_details_page_of_the_same_launches() {
    let details = samples::read(&format!("{FIXTURES}/ncu-hopper/h200/simt-boost.details.csv"));
    let chart = samples::read(&format!("{FIXTURES}/ncu-issue42/roofline-chart-body-items.details.csv"));
    for files in [vec![details.clone(), chart.clone()], vec![chart, details]] {
        let ds = load(files);
        assert_eq!(ds.kernels.len(), 2);
        assert_eq!(ds.launches.len(), 2, "one launch per ID");
        for (k, duration_s) in [("fma_fp32", 142.18e-6), ("copy_contiguous", 66.88e-6)] {
            let k = kernel(&ds, k);
            assert_eq!(k.launches, 1, "{}", k.name);
            let t = k.counters.get(Counter::TimeS).expect("a time");
            assert!((t - duration_s).abs() < 1e-15, "{}: {t}", k.name);
            assert_eq!(k.counters.get(Counter::ClockHz), Some(1.98e9), "{}", k.name);
        }
    }
}

/// A clock that differs (another run at another clock) still makes another run: the SM
/// clocks 1.98 and 1.41 GHz of the same ID and kernel are two launches.
#[test]
fn a_different_clock_is_still_another_run() {
    let details = samples::read(&format!("{FIXTURES}/ncu-hopper/h200/simt-boost.details.csv"));
    let chart = samples::read(&format!("{FIXTURES}/ncu-issue42/roofline-chart-body-items.details.csv"));
    let text = String::from_utf8(chart.bytes).unwrap_or_default().replace("\"SM Frequency\",\"Ghz\",\"1.98\"", "\"SM Frequency\",\"Ghz\",\"1.41\"");
    let other = SourceFile { name: "other-clock.csv".into(), bytes: text.into_bytes() };
    let ds = load(vec![details, other]);
    assert_eq!(kernel(&ds, "fma_fp32").launches, 2);
}

/// Bank conflicts as the hardware counts them, loads and stores apart
/// (`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum`), not wavefronts per
/// instruction. The RTX 4090 transposes (CudaProgramming report), 524288 shared loads and as
/// many stores each:
/// * `transposeSmem`: 7902737 load and 10910 store conflicts; wavefronts 8458799 + 537032 =
///   8995831, so 7913647 ÷ 8995831 = 88% of them are conflicts. Before: 8995831 ÷ 1048576 =
///   "8.6-way shared-memory bank conflicts", loads and stores averaged (the loads' are 15-way
///   extra: 7902737 ÷ 524288).
/// * `transposeSmemPad`: 15191 + 9316 conflicts of 540779 + 533743 = 1074522 wavefronts
///   (2.3%): few, but counted, where 1.02 wavefronts per LD/ST read "no bank conflicts".
#[test]
fn bank_conflicts_are_the_hardware_counts_loads_and_stores_apart() {
    use roofline_engine::model::walls::describe_shared_access;
    let ds = load(vec![sample("ncu-rep/CudaProgramming__profiling_profiles_smemTranspose.ncu-rep")]);
    let k = kernel(&ds, "transposeSmem(");
    assert_eq!(k.counters.get(Counter::SharedLdBankConflicts), Some(7902737.0));
    assert_eq!(k.counters.get(Counter::SharedStBankConflicts), Some(10910.0));
    assert_eq!(k.counters.get(Counter::SharedTxn), Some(8458799.0 + 537032.0));
    assert_eq!(describe_shared_access(k).as_deref(), Some("shared-memory bank conflicts: 7.9 M on loads, 10.9 k on stores (88% of shared wavefronts)"));
    let pad = kernel(&ds, "transposeSmemPad(");
    assert_eq!(describe_shared_access(pad).as_deref(), Some("shared-memory bank conflicts: 15.2 k on loads, 9.3 k on stores (2% of shared wavefronts)"));
    // A kernel without shared accesses, whose counters say 0: no conflicts, as counted.
    assert_eq!(describe_shared_access(kernel(&ds, "copyGmem(")).as_deref(), Some("no shared-memory bank conflicts (counted)"));
}

/// The raw page carries the L2 clock too: the H200 `--set full` page printed in base units
/// (fixtures/ncu-hopper/h200/simt-full.raw-base-units.csv), launch 0 (`fma_fp64`),
/// `lts__cycles_elapsed.avg.per_second` = "1,679,020,484.38" hz; its L2 bytes are the L1
/// sectors × 32 as in the report of the same run: `copy_contiguous` 4194304 read + 4194304
/// written sectors = 268435456 bytes.
#[test]
fn the_raw_page_gives_the_l2_clock_and_l2_bytes() {
    let ds = load(vec![samples::read(&format!("{FIXTURES}/ncu-hopper/h200/simt-full.raw-base-units.csv"))]);
    assert_eq!(kernel(&ds, "fma_fp64").l2_clock_hz(), Some(1679020484.38));
    assert_eq!(kernel(&ds, "copy_contiguous").counters.get(Counter::L2Bytes), Some(268435456.0));
}
