//! nvprof's units and counters: sizes and throughputs are binary (checked against the real
//! samples' own numbers), events and metrics of one run are read once each, thread
//! instructions keep predicated-off threads apart, and LD/ST requests stay apart from
//! instructions.

use roofline_engine::domain::counters::Counter;
use roofline_engine::import::records::Reader;
use roofline_engine::import::nvprof::{rate_unit_bytes_per_s, size_unit_bytes};
use roofline_engine::import::split_unit;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{read, sample, SAMPLES};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const TRACE: &str = "nvprof/magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv";
const SGEMM: &str = "nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv";

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

/// The records of a CSV sample from its header line on (`header_prefix` starts it).
fn rows(path: &str, header_prefix: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(format!("{SAMPLES}/{path}")).unwrap_or_else(|e| panic!("{e}"));
    let start = text.find(header_prefix).unwrap_or_else(|| panic!("no header in {path}"));
    Reader::new(&text[start..]).map(|r| r.fields.iter().map(|f| f.to_string()).collect()).collect()
}

#[test]
fn trace_sizes_are_mebibytes_and_throughput_is_size_over_duration() {
    let rows = rows(TRACE, "\"Start\"");
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap_or_else(|| panic!("{name}"));
    let (units, data) = (&rows[1], &rows[2..]);
    assert_eq!((units[col("Size")].as_str(), units[col("Throughput")].as_str()), ("MB", "MB/s"));
    // The kernel ran 1024 × 64 threads (Grid X × Block X), each returning one int: the small
    // copy back is 65536 × 4 = 262144 bytes, printed 0.250000 MB: 262144 / 2^20 = 0.25,
    // where MB = 10^6 would print 0.262144.
    let kernel = &data[0];
    let threads: f64 = kernel[col("Grid X")].parse::<f64>().unwrap_or(0.0) * kernel[col("Block X")].parse::<f64>().unwrap_or(0.0);
    assert_eq!(threads, 65536.0);
    let small = data.iter().find(|r| r[col("Size")] == "0.250000").expect("the 0.25 MB copy");
    assert_eq!(threads * 4.0 / size_unit_bytes("MB").unwrap_or(0.0), 0.25);
    // The importer's transfers: bytes ÷ time equals the printed Throughput × 2^20 B/s, to the
    // 6 printed decimals: 128 MB / 316.187384 ms = 404.823236 MB/s, 0.25 MB / 0.603582 ms =
    // 414.193929 MB/s.
    let ds = load(&[sample(TRACE)]);
    assert_eq!(ds.transfers.len(), 2);
    let mib = 1_048_576.0;
    for (t, printed_mb_s) in ds.transfers.iter().zip([404.823236, 414.193929]) {
        let (bytes, time) = (t.bytes.unwrap_or(0.0), t.time_s.unwrap_or(1.0));
        let rate = bytes / time;
        assert!((rate - printed_mb_s * rate_unit_bytes_per_s("MB/s").unwrap_or(0.0)).abs() <= 5e-7 * mib, "{rate}");
    }
    assert_eq!(ds.transfers[0].bytes, Some(128.0 * mib));
    assert_eq!(ds.transfers[1].bytes, Some(262_144.0));
    assert_eq!(small[col("Throughput")], "414.193929");
}

#[test]
fn metric_throughputs_are_binary_too() {
    // In the sgemm metric table, each throughput is its metric's bytes ÷ the kernel's duration.
    // dram_write_transactions 13 × 32 B at dram_write_throughput 32.972782 MB/s, and
    // l2_read_transactions 20896 × 32 B at l2_read_throughput 51.757757 GB/s (Max column; the
    // one invocation): 416 / (32.972782 × 2^20) = 12.0320 µs and 668672 / (51.757757 × 2^30)
    // = 12.0320 µs. With MB = 10^6 and GB = 10^9 they would disagree: 12.616 vs 12.919 µs.
    let rows = rows(SGEMM, "\"Device\"");
    let max = |metric: &str| rows.iter().find(|r| r.get(3).is_some_and(|m| m == metric)).and_then(|r| r.get(6).cloned()).unwrap_or_default();
    let bytes_per_s = |cell: String| split_unit(&cell).and_then(|(v, u)| Some(v * rate_unit_bytes_per_s(u)?)).unwrap_or(0.0);
    let dram_s = 13.0 * 32.0 / bytes_per_s(max("dram_write_throughput"));
    let l2_s = 20896.0 * 32.0 / bytes_per_s(max("l2_read_throughput"));
    assert_eq!((max("dram_write_transactions"), max("l2_read_transactions")), ("13".to_string(), "20896".to_string()));
    assert!((dram_s - 12.032e-6).abs() < 1e-10 && (l2_s - 12.032e-6).abs() < 1e-10, "{dram_s} {l2_s}");
    let decimal: (f64, f64) = (13.0 * 32.0 / 32.972782e6, 20896.0 * 32.0 / 51.757757e9);
    assert!((decimal.0 - decimal.1).abs() > 2e-7, "decimal units would not agree");
}

fn check_events_and_metrics(ds: &Dataset) {
    let k = &ds.kernels[0];
    assert_eq!((k.name.as_str(), k.launches), ("transposeNaive(float*, float*, int, int)", 100));
    let c = |x| k.counters.get(x);
    // inst_executed is an event and a metric: 131072 per invocation × 100, once.
    assert_eq!(c(Counter::WarpInst), Some(13_107_200.0));
    // thread_inst_executed 4194304 and not_predicated_off_thread_inst_executed 3932160, × 100.
    assert_eq!(c(Counter::ThreadInst), Some(419_430_400.0));
    assert_eq!(c(Counter::ThreadInstPredOn), Some(393_216_000.0));
    assert_eq!(k.thread_inst(), Some(393_216_000.0), "Ding & Williams' thread dots use the non-predicated ones");
    // (8192 loads + 8192 stores) × 100 warp instructions; transactions (32768 + 262144) × 100.
    assert_eq!(c(Counter::GlobalLdStInst), Some(1_638_400.0));
    assert_eq!(c(Counter::GlobalTxn), Some(29_491_200.0));
    assert_eq!(ds.devices.runs.iter().map(|r| r.device.name.as_deref()).collect::<Vec<_>>(), [Some("Tesla V100-SXM2-16GB")]);
}

#[test]
fn csv_event_and_metric_tables_of_one_run() {
    let ds = load(&[read(&format!("{FIXTURES}/nvprof-v100-events-metrics.csv"))]);
    check_events_and_metrics(&ds);
    let k = &ds.kernels[0];
    // global_{load,store}_requests: (8192 + 8192) × 100, apart from the instructions.
    assert_eq!(k.counters.get(Counter::GlobalLdStReq), Some(1_638_400.0));
    assert_eq!(k.global_ldst_inst(), Some(1_638_400.0));
    // dram_read_throughput 512 GB/s without DRAM transactions: a warning, no DRAM bytes.
    assert_eq!(k.counters.get(Counter::DramBytes), None);
    assert!(ds.warnings.iter().any(|w| w.message.starts_with("1 kernel(s) have dram_*_throughput")), "{:?}", ds.warnings);
    // tensor_precision_fu_utilization "Idle (0)": no tensor warning.
    assert!(!ds.warnings.iter().any(|w| w.message.contains("tensor cores")));
}

#[test]
fn text_event_and_metric_tables_of_one_run() {
    let ds = load(&[read(&format!("{FIXTURES}/nvprof-v100-events-metrics.txt"))]);
    assert_eq!(ds.files[0].format, "nvprof-metrics-text");
    check_events_and_metrics(&ds);
    // Event lines end in Total: the average is the column before it (4194304, not 419430400).
    // tensor_precision_fu_utilization "Low (1)": tensor cores worked, nvprof did not count them.
    let w = ds.warnings.iter().find(|w| w.message.contains("tensor cores")).expect("tensor warning");
    assert!(w.message.starts_with("1 kernel(s) used tensor cores"), "{}", w.message);
    assert_eq!(ds.kernels[0].counters.get(Counter::TensorFlops), None, "a utilisation level is not a count");
}

#[test]
fn the_real_text_metrics_warn_that_dram_throughput_is_not_bytes() {
    // srad's 7 kernels have only dram_read_throughput (e.g. 25.741GB/s): no DRAM bytes.
    let ds = load(&[sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile")]);
    assert!(ds.kernels.iter().all(|k| k.counters.get(Counter::DramBytes).is_none()));
    let w = ds.warnings.iter().find(|w| w.message.contains("dram_*_throughput")).expect("warning");
    assert!(w.message.starts_with("7 kernel(s)"), "{}", w.message);
    assert!(w.hint.as_deref().is_some_and(|h| h.contains("dram_read_transactions")));
}
