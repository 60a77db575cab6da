//! `roofline analyze` reads files above its streaming threshold (4 MiB) in chunks
//! (`DatasetBuilder::push_chunk`); the report must be the one the in-memory path gives.

#[path = "../../engine/benches/support/big_ncu.rs"]
mod big_ncu;

use roofline_engine::report::analyze_choice;
use roofline_engine::{load_dataset, SourceFile};
use serde_json::Value;
use std::process::Command;

const RAW: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/samples/ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv"
);

/// A file in the system's temporary directory, removed when dropped.
struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_file(tag: &str, bytes: &[u8]) -> TempFile {
    let path = std::env::temp_dir().join(format!("roofline-{tag}-{}.csv", std::process::id()));
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    TempFile(path)
}

fn big_raw_page() -> Vec<u8> {
    let sample = std::fs::read_to_string(RAW).unwrap_or_else(|e| panic!("{RAW}: {e}"));
    big_ncu::big_ncu(&sample, 6_000_000)
}

#[test]
fn a_large_file_streams_to_the_in_memory_report() {
    let bytes = big_raw_page();
    let file = temp_file("large", &bytes);
    let path = file.0.to_string_lossy().into_owned();
    let out = Command::new(env!("CARGO_BIN_EXE_roofline")).args(["analyze", "--machine", "a100", "--json", &path]).output().expect("roofline runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));

    let ds = load_dataset(&[SourceFile { name: path.clone(), bytes }]).unwrap_or_else(|e| panic!("{e}"));
    // The CLI's default clock: measured, else (Nsight Compute without a clock metric) base.
    let machine = roofline_engine::model::catalogue::by_id("a100");
    let picked = roofline_engine::choice::choose(&ds, machine, roofline_engine::choice::ClockChoice::Measured).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(picked.as_ref().map(|c| c.clock), Some(roofline_engine::choice::ClockBasis::Base), "the raw page has no SM clock metric");
    let want = serde_json::to_value(analyze_choice(&ds, picked.as_ref())).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got, want);
    assert!(got["kernels"].as_array().is_some_and(|k| k.len() == 2), "{got}");
}

#[test]
fn an_error_deep_in_a_large_file_names_the_file_and_line() {
    let mut text = String::from_utf8(big_raw_page()).unwrap_or_default();
    // Launch 1500's ID made unreadable: the row is on line 1500 + 5 (two ==PROF== lines,
    // header, units row, 1-based).
    let at = text.find("\n\"1500\",").unwrap_or_else(|| panic!("no launch 1500"));
    text.replace_range(at + 2..at + 6, "oops");
    let file = temp_file("bad", text.as_bytes());
    let path = file.0.to_string_lossy().into_owned();
    let out = Command::new(env!("CARGO_BIN_EXE_roofline")).args(["analyze", &path]).output().expect("roofline runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{path}, line 1505: expected a launch number")), "{err}");
}
