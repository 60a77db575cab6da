//! rocprofv3 databases (`import::rocpd`): the fixtures of `tests/fixtures/rocpd/` (made by its
//! `make.sh` from rocprofiler-sdk's schema and rows written by hand), every expected value
//! computed by hand from those rows.
#![cfg(feature = "rocpd")]

use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::domain::counters::Counter;
use roofline_engine::import::rocpd::{self, import_bytes, import_connection, is_database, rusqlite, SQLITE_MAGIC};
use roofline_engine::import::Imported;
use roofline_engine::{load_dataset, SourceFile};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/rocpd/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn import(name: &str) -> Imported {
    import_bytes(name, &fixture(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn get(l: &roofline_engine::domain::profile::Launch, c: Counter) -> Option<f64> {
    l.counters.get(c)
}

#[test]
fn detection_is_by_the_sqlite_header() {
    assert!(is_database(&fixture("trace.db")));
    assert!(is_database(SQLITE_MAGIC));
    assert!(!is_database(b"SQLite format 3"), "15 bytes: the NUL is part of the magic");
    assert!(!is_database(b"Node_Id,Logical_Node_Id,Agent_Type\n"));
}

#[test]
fn mi300x_devices_launches_and_counters() {
    let imp = import("mi300x.db");
    // One GPU agent (the CPU agent is not a device).
    assert_eq!(imp.devices.len(), 1);
    let d = &imp.devices[0];
    assert_eq!(d.name.as_deref(), Some("AMD Instinct MI300X"));
    assert_eq!(d.arch.as_deref(), Some("gfx942"));
    assert_eq!(d.sm_count, Some(304));
    assert_eq!(d.max_sm_clock_hz, Some(2100e6)); // 2100 MHz
    assert_eq!(imp.launches.len(), 3);
    let names: Vec<&str> = imp.launches.iter().map(|l| l.kernel.as_str()).collect();
    assert_eq!(names, ["dgemm_fp64(double const*, double const*, double*, int)", "vaddf64(double*, double const*, int)", "dgemm_fp64(double const*, double const*, double*, int)"]);
    assert_eq!(imp.launches.iter().map(|l| l.id).collect::<Vec<_>>(), [Some(1), Some(2), Some(3)]);
    assert!(imp.launches.iter().all(|l| l.device == Some(0) && l.count == 1));
    let (a, b, c) = (&imp.launches[0], &imp.launches[1], &imp.launches[2]);
    // Durations: end − start = 250,000 ns, 40,000 ns and 260,000 ns (timestamps ~1.7e18 ns,
    // subtracted as integers).
    assert_eq!(get(a, Counter::TimeS), Some(250_000.0 * 1e-9));
    assert_eq!(get(b, Counter::TimeS), Some(40_000.0 * 1e-9));
    assert_eq!(get(c, Counter::TimeS), Some(260_000.0 * 1e-9));
    // dgemm: vector FP64 = 64 lanes × (ADD 1000 + MUL 2000 + TRANS 0 + 2 × FMA 3000) = 576,000;
    // matrix FP64 = 512 × MFMA_MOPS_F64 4000 = 2,048,000.
    assert_eq!(get(a, Counter::Fp64Flops), Some(576_000.0));
    assert_eq!(get(a, Counter::MatrixFp64), Some(2_048_000.0));
    // HBM: RDREQ = 600 + 400 (two instance rows, summed) = 1000, RDREQ_32B 100, BUBBLE 200,
    // WRREQ 300, WRREQ_64B 250: reads 200 × 128 + (1000 − 200 − 100) × 64 + 100 × 32 = 73,600;
    // writes 250 × 64 + (300 − 250) × 32 = 17,600; total 91,200.
    assert_eq!(get(a, Counter::DramBytes), Some(91_200.0));
    // gfx942: 128 bytes per vL1D access (5000 → 640,000) and per vL1D→L2 read, 64 per write:
    // 1500 × 128 + 500 × 64 = 224,000.
    assert_eq!(get(a, Counter::L1Bytes), Some(640_000.0));
    assert_eq!(get(a, Counter::L2Bytes), Some(224_000.0));
    assert_eq!(a.counters, c.counters.clone().with_time(get(a, Counter::TimeS)), "dispatches 1 and 3 differ only in time");
    // vaddf64: 64 × 65,536 ADDs = 4,194,304 FLOPs, no matrix work (MOPS 0 → 0);
    // HBM reads 524,288 × 128 (all BUBBLE) = 67,108,864 + writes 524,288 × 64 = 33,554,432.
    assert_eq!(get(b, Counter::Fp64Flops), Some(4_194_304.0));
    assert_eq!(get(b, Counter::MatrixFp64), Some(0.0));
    assert_eq!(get(b, Counter::DramBytes), Some(100_663_296.0));
    // L1: 786,432 × 128; L2: 524,288 × 128 + 524,288 × 64.
    assert_eq!(get(b, Counter::L1Bytes), Some(100_663_296.0));
    assert_eq!(get(b, Counter::L2Bytes), Some(100_663_296.0));
    assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
}

/// `Counters` with its time replaced, to compare two launches' other counters.
trait WithTime {
    fn with_time(self, t: Option<f64>) -> Self;
}

impl WithTime for roofline_engine::domain::counters::Counters {
    fn with_time(mut self, t: Option<f64>) -> Self {
        if let Some(t) = t {
            self.set(Counter::TimeS, t);
        }
        self
    }
}

#[test]
fn two_processes_keep_their_devices() {
    let imp = import("two_process.db");
    // Each process's tables (one UUID each) are read: its own GPU, its own dispatch, though
    // both number their rows from 1. The CPU agents are not devices.
    assert_eq!(imp.devices.len(), 2);
    let (d0, d1) = (&imp.devices[0], &imp.devices[1]);
    assert_eq!((d0.name.as_deref(), d0.arch.as_deref(), d0.sm_count), (Some("AMD Instinct MI300X"), Some("gfx942"), Some(304)));
    assert_eq!((d1.name.as_deref(), d1.arch.as_deref(), d1.sm_count, d1.max_sm_clock_hz), (Some("AMD Instinct MI250X"), Some("gfx90a"), Some(110), Some(1700e6)));
    assert_eq!(imp.launches.len(), 2);
    let (a, b) = (&imp.launches[0], &imp.launches[1]);
    assert_eq!((a.kernel.as_str(), a.device, a.id), ("k_a", Some(0), Some(1)));
    assert_eq!((b.kernel.as_str(), b.device, b.id), ("k_b", Some(1), Some(1)));
    // k_a: 6000 − 5000 = 1000 ns; 64 × ADD 10 = 640 FLOPs; gfx942: 128 × 10 accesses = 1280 B.
    assert_eq!((get(a, Counter::TimeS), get(a, Counter::Fp64Flops), get(a, Counter::L1Bytes)), (Some(1000.0 * 1e-9), Some(640.0), Some(1280.0)));
    // k_b: 9000 − 7000 = 2000 ns; 64 × 2 × FMA 5 = 640 FLOPs; gfx90a: 64 × 10 accesses = 640 B
    // (the generation from the agent's gfx target: no counter name shows it, and no warning).
    assert_eq!((get(b, Counter::TimeS), get(b, Counter::Fp64Flops), get(b, Counter::L1Bytes)), (Some(2000.0 * 1e-9), Some(640.0), Some(640.0)));
    // Schema 3.0.1 is version 3: no warning.
    assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
}

#[test]
fn a_kernel_trace_gives_times_only() {
    let imp = import("trace.db");
    assert_eq!(imp.devices.len(), 1);
    assert_eq!(imp.devices[0].name.as_deref(), Some("AMD Instinct MI300X"));
    assert_eq!(imp.launches.len(), 2);
    // 10,000 ns and 30,000 ns; no other counter.
    let times: Vec<Option<f64>> = imp.launches.iter().map(|l| get(l, Counter::TimeS)).collect();
    assert_eq!(times, [Some(10_000.0 * 1e-9), Some(30_000.0 * 1e-9)]);
    assert!(imp.launches.iter().all(|l| l.kernel == "copy" && l.counters.get(Counter::Fp64Flops).is_none() && l.counters.get(Counter::DramBytes).is_none()));
}

#[test]
fn an_open_connection_reads_the_same() {
    let path = format!("{}/tests/fixtures/rocpd/mi300x.db", env!("CARGO_MANIFEST_DIR"));
    let conn = rusqlite::Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    assert_eq!(import_connection("mi300x.db", &conn).unwrap(), import("mi300x.db"));
    assert_eq!(rocpd::import_path("mi300x.db", std::path::Path::new(&path)).unwrap(), import("mi300x.db"));
}

#[test]
fn the_dataset_reads_databases_by_content_whole_or_in_chunks() {
    // Named .bin: the extension says nothing.
    let file = SourceFile { name: "run.bin".into(), bytes: fixture("mi300x.db") };
    let whole = load_dataset(std::slice::from_ref(&file)).unwrap();
    assert_eq!((whole.files[0].format, whole.files[0].tool.as_deref()), ("rocpd", Some(rocpd::TOOL)));
    // Two kernels: dgemm's two launches summed (time 250 + 260 µs = 510 µs; vector FLOPs
    // 2 × 576,000; matrix 2 × 2,048,000).
    assert_eq!(whole.kernels.len(), 2);
    let dgemm = &whole.kernels[0];
    assert_eq!(dgemm.launches, 2);
    assert!((dgemm.counters.get(Counter::TimeS).unwrap() - 510e-6).abs() < 1e-15);
    assert_eq!(dgemm.counters.get(Counter::Fp64Flops), Some(1_152_000.0));
    assert_eq!(dgemm.counters.get(Counter::MatrixFp64), Some(4_096_000.0));
    for chunk in [1usize, 7, 4096] {
        let mut b = DatasetBuilder::new();
        for c in file.bytes.chunks(chunk) {
            b.push_chunk(&file.name, c).unwrap();
        }
        let ds = b.finish().unwrap();
        assert_eq!(ds.kernels, whole.kernels, "chunks of {chunk}");
        assert_eq!(ds.launches, whole.launches);
    }
    // Added as read elsewhere (the web app's SQLite worker): the same dataset.
    let mut b = DatasetBuilder::new();
    b.add_imported_file("run.bin", "rocpd", Some(rocpd::TOOL.into()), import_bytes("run.bin", &file.bytes).unwrap()).unwrap();
    let ds = b.finish().unwrap();
    assert_eq!((ds.kernels, ds.launches, ds.files), (whole.kernels, whole.launches, whole.files));
}

#[test]
fn imported_crosses_workers_as_json() {
    let imp = import("mi300x.db");
    let text = serde_json::to_string(&imp).unwrap();
    let back: Imported = serde_json::from_str(&text).unwrap();
    assert_eq!(back, imp);
}

#[test]
fn a_damaged_database_is_an_error_naming_the_file() {
    let bytes = fixture("mi300x.db");
    // Cut at every 1/8 of the file, and at the header.
    for cut in [16, 99, 100, 512, bytes.len() / 8, bytes.len() / 2, bytes.len() - 1] {
        let e = import_bytes("cut.db", &bytes[..cut]).unwrap_err();
        assert_eq!(e.file, "cut.db", "{cut}: {e}");
    }
    // Pages overwritten with garbage (past the first page, which holds the schema).
    let mut broken = bytes.clone();
    for b in broken.iter_mut().skip(2048).step_by(7) {
        *b = 0xA5;
    }
    match import_bytes("broken.db", &broken) {
        Ok(_) => {}
        Err(e) => assert_eq!(e.file, "broken.db"),
    }
    // An SQLite database that rocprofv3 did not write.
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);").unwrap();
    let e = import_connection("other.db", &conn).unwrap_err();
    assert!(e.message.contains("not one rocprofv3 wrote"), "{e}");
    // Through the dataset: the same error, the file named.
    let e = load_dataset(&[SourceFile { name: "cut.db".into(), bytes: bytes[..bytes.len() / 2].to_vec() }]).unwrap_err();
    assert_eq!(e.file, "cut.db");
}

#[test]
fn odd_cells_are_read_or_skipped_not_trusted() {
    // Text where numbers belong, NULLs, a malformed extdata, end before start, a dispatch of
    // an unknown agent: read what can be read, no panic.
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE rocpd_info_agent (id, guid, type, absolute_index, name, product_name, extdata);
         INSERT INTO rocpd_info_agent VALUES (1, 'g', 'GPU', 1, 'gfx942', NULL, '{not json');
         CREATE TABLE rocpd_kernel_dispatch (id, guid, agent_id, kernel_id, dispatch_id, start, \"end\", event_id);
         INSERT INTO rocpd_kernel_dispatch VALUES (1, 'g', 1, 9, '7', '100', '350', 1), (2, 'g', 5, 9, 8, 500, 400, 2), (3, 'g', NULL, NULL, NULL, NULL, NULL, NULL);
         CREATE TABLE rocpd_metadata (id, tag, value); INSERT INTO rocpd_metadata VALUES (1, 'schema_version', '4');",
    )
    .unwrap();
    let imp = import_connection("odd.db", &conn).unwrap();
    assert_eq!(imp.launches.len(), 3);
    let by_row = |id: Option<u64>| imp.launches.iter().find(|l| l.id == id).unwrap();
    // Text '100'..'350' → 250 ns; the agent has no product name: "GPU 1".
    let first = by_row(Some(7));
    assert_eq!(get(first, Counter::TimeS), Some(250.0 * 1e-9));
    assert_eq!((first.kernel.as_str(), first.device), ("kernel 9", Some(0)));
    assert_eq!(imp.devices[0].name.as_deref(), Some("GPU 1"));
    assert_eq!(imp.devices[0].sm_count, None);
    let second = by_row(Some(8));
    assert_eq!(second.device, None, "agent 5 is not in the file");
    assert_eq!(get(second, Counter::TimeS), None, "end before start");
    assert_eq!(by_row(None).kernel, "unknown kernel");
    let warnings: Vec<String> = imp.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(warnings.iter().any(|w| w.contains("schema version \"4\"")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("2 kernel dispatch(es) have no duration")), "{warnings:?}");
}
