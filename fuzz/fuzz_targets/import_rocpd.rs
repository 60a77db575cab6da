//! rocprofv3 databases (`import::rocpd::import_bytes`) on arbitrary bytes: as given, and with
//! the SQLite header string written over the first 16 bytes, so that mutations of the seed
//! databases (`engine/tests/fixtures/rocpd/*.db`) reach SQLite's page reader and the queries
//! rather than stopping at detection. A bad database must be an error naming the file.
#![no_main]
use roofline_engine::import::rocpd::{import_bytes, SQLITE_MAGIC};

fn check(data: &[u8]) {
    match import_bytes("fuzz.db", data) {
        Ok(imported) => assert!(imported.launches.iter().all(|l| l.device.is_none_or(|d| usize::from(d) < imported.devices.len()))),
        Err(e) => assert_eq!(e.file, "fuzz.db"),
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    check(data);
    if data.len() >= SQLITE_MAGIC.len() && !data.starts_with(SQLITE_MAGIC) {
        let mut db = data.to_vec();
        db[..SQLITE_MAGIC.len()].copy_from_slice(SQLITE_MAGIC);
        check(&db);
    }
});
