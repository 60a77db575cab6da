//! `roofline compare BEFORE… --to AFTER…` (issue 44): the JSON contract of docs/CLI.md on the
//! cs599k SiLU reports (PyTorch's kernel before, the Triton kernel after; engine/tests/
//! compare_runs.rs derives the same numbers), the text table, and the exit codes.

mod common;
use common::roofline;
use serde_json::Value;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples/");

fn path(rel: &str) -> String {
    format!("{SAMPLES}{rel}")
}

fn pytorch() -> String {
    path("ncu-rep/cs599k__profile.ncu-rep")
}

fn triton() -> String {
    path("ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep")
}

fn json_of(args: &[&str]) -> Value {
    let out = roofline(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn json_fields_and_values() {
    let (b, a) = (pytorch(), triton());
    let r = json_of(&["compare", &b, "--to", &a, "--pair", "vectorized_elementwise_kernel=silu_kernel_non_strided", "--json"]);
    // Each run as analyze describes it: files, device, machine (its own: gh200, gh200-ncu).
    assert_eq!(r["before"]["files"][0]["path"], b.as_str());
    assert_eq!(r["after"]["files"][0]["path"], a.as_str());
    assert_eq!(r["before"]["device"]["name"], "NVIDIA GH200 480GB");
    assert_eq!(r["before"]["machine"]["id"], "gh200");
    assert_eq!(r["after"]["machine"]["id"], "gh200-ncu");
    assert_eq!(r["after"]["machine"]["chosen"], "profile");
    let c = &r["comparison"];
    // Run: 6 047 424 ns ÷ 447 744 ns = 13.506432247.
    assert!((f(&c["run_speedup"]) - 13.506432247).abs() < 1e-9);
    assert!((f(&c["before_time_s"]) - 6_047_424e-9).abs() < 1e-15);
    assert_eq!((c["added"].as_array().map(Vec::len), c["removed"].as_array().map(Vec::len)), (Some(0), Some(0)));
    let pairs = c["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 2);
    // Largest saving first. SiLU: 5 269 952 ÷ 305 184 = 17.268113663; saved 4 964 768 ns,
    // 0.820972368 of the before run; % of roof null before (no counters), 0.837092221 after.
    let silu = &pairs[0];
    assert_eq!(silu["after"], "silu_kernel_non_strided");
    assert_eq!(silu["matched_by"], "user");
    assert!((f(&silu["speedup"]) - 17.268113663).abs() < 1e-9);
    assert!((f(&silu["share_of_run"]) - 0.820972368).abs() < 1e-9);
    assert!(silu["before_attained"].is_null());
    assert!((f(&silu["after_attained"]) - 0.837092221).abs() < 1e-9);
    for key in ["before", "after", "before_time_s", "after_time_s", "before_flops_per_s", "after_flops_per_s", "before_bound", "after_bound", "saved_s"] {
        assert!(silu.get(key).is_some(), "pairs[0].{key}");
    }
    // The input kernel: template arguments changed (normal → uniform), 777 472 ÷ 142 560 = 5.453647587.
    assert_eq!(pairs[1]["matched_by"], "demangled");
    assert!((f(&pairs[1]["speedup"]) - 5.453647587).abs() < 1e-9);
    // Names exactly as `analyze --json` prints them.
    let analyzed = json_of(&["analyze", &b, "--json"]);
    let names: Vec<&str> = analyzed["kernels"].as_array().expect("kernels").iter().filter_map(|k| k["name"].as_str()).collect();
    assert!(names.contains(&silu["before"].as_str().unwrap_or_default()) && names.contains(&pairs[1]["before"].as_str().unwrap_or_default()));
}

#[test]
fn unpaired_kernels_are_listed() {
    let (b, a) = (pytorch(), triton());
    let c = json_of(&["compare", &b, "--to", &a, "--json"])["comparison"].clone();
    assert_eq!(c["added"][0]["name"], "silu_kernel_non_strided");
    // 305 184 ÷ 447 744 = 0.681603774 of the after run.
    assert!((f(&c["added"][0]["share_of_run"]) - 0.681603774).abs() < 1e-9);
    assert!(c["removed"][0]["name"].as_str().is_some_and(|n| n.contains("vectorized_elementwise_kernel")));
    // 5 599 680 ns = 634 912 (pair) + 5 269 952 (removed) − 305 184 (added).
    let identity = f(&c["paired_saved_s"]) + f(&c["removed_time_s"]) - f(&c["added_time_s"]);
    assert!((identity - 5_599_680e-9).abs() < 1e-15, "{identity}");
    // --unpair keeps the distribution kernels apart: nothing paired, two added, two removed.
    let c = json_of(&["compare", &b, "--to", &a, "--unpair", "distribution_elementwise_grid_stride_kernel", "--json"])["comparison"].clone();
    let len = |k: &str| c[k].as_array().map(Vec::len);
    assert_eq!((len("pairs"), len("added"), len("removed")), (Some(0), Some(2), Some(2)));
}

#[test]
fn text_table_and_errors() {
    let (b, a) = (pytorch(), triton());
    let out = roofline(&["compare", &b, "--to", &a, "--pair", "vectorized_elementwise_kernel=silu_kernel_non_strided"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("17.27x") && text.contains("5.45x"), "{text}");
    assert!(text.contains("- → 84%") && text.contains("speed-up 13.51x"), "{text}");
    // A pair naming no kernel: a usage error (2) saying which run.
    let out = roofline(&["compare", &b, "--to", &a, "--pair", "nope=silu_kernel_non_strided"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("before run"));
    // A file that cannot be read: exit 1, the message names it.
    let out = roofline(&["compare", &b, "--to", "/nonexistent/after.ncu-rep"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/after.ncu-rep"));
    // --to is required.
    assert_eq!(roofline(&["compare", &b]).status.code(), Some(2));
}

/// `--machine` applies to both runs: each is judged against it.
#[test]
fn machine_for_both() {
    let (b, a) = (pytorch(), triton());
    let r = json_of(&["compare", &b, "--to", &a, "--machine", "h100", "--json"]);
    assert_eq!((r["before"]["machine"]["id"].as_str(), r["after"]["machine"]["id"].as_str()), (Some("h100"), Some("h100")));
    assert_eq!(r["after"]["machine"]["chosen"], "option");
}
