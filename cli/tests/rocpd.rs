//! `roofline analyze` on rocprofv3 databases (`*_results.db`, read by content), alone and
//! with other files; the fixtures are the engine's (`engine/tests/fixtures/rocpd/`).

use serde_json::Value;

mod common;
use common::roofline;

fn fixture(name: &str) -> String {
    format!("{}/../engine/tests/fixtures/rocpd/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn analyze(files: &[&str]) -> Value {
    let mut args = vec!["analyze", "--json"];
    args.extend_from_slice(files);
    let out = roofline(&args);
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

#[test]
fn analyze_reads_a_rocpd_database() {
    let v = analyze(&[&fixture("mi300x.db")]);
    let text = v.to_string();
    assert!(text.contains("\"rocpd\""), "the file's format: {text}");
    // The MI300X is identified from the agent's product name and gfx target.
    assert_eq!(v["machine"]["id"], "mi300x", "{text}");
    // Two kernels: dgemm, two launches of 250 + 260 µs = 510 µs; vaddf64, one of 40 µs.
    let k = &v["kernels"];
    assert_eq!((k[0]["name"].as_str(), k[0]["launches"].as_u64()), (Some("dgemm_fp64(double const*, double const*, double*, int)"), Some(2)));
    assert!((k[0]["time_s"].as_f64().unwrap_or(0.0) - 510e-6).abs() < 1e-12, "{}", k[0]["time_s"]);
    assert_eq!((k[1]["name"].as_str(), k[1]["launches"].as_u64()), (Some("vaddf64(double*, double const*, int)"), Some(1)));
    assert!((k[1]["time_s"].as_f64().unwrap_or(0.0) - 40e-6).abs() < 1e-12, "{}", k[1]["time_s"]);
}

#[test]
fn analyze_reads_a_database_with_other_files() {
    // A kernel trace and a counter database of one GPU, given together.
    let v = analyze(&[&fixture("trace.db"), &fixture("mi300x.db")]);
    let text = v.to_string();
    assert!(text.contains("copy") && text.contains("dgemm_fp64"), "{text}");
}

#[test]
fn a_cut_database_is_an_error_naming_the_file() {
    let bytes = std::fs::read(fixture("mi300x.db")).unwrap();
    let path = std::env::temp_dir().join(format!("roofline-cut-{}.db", std::process::id()));
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let p = path.to_string_lossy().to_string();
    let out = roofline(&["analyze", &p]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&p) && err.contains("cut short"), "{err}");
    assert!(!err.contains("UTF-8"), "{err}");
}
