//! The built `roofline` binary: its JSON contract (docs/CLI.md), exit codes and messages.
//! Samples are read in place from shared/samples/, never copied into the repository.

use serde_json::Value;
use std::process::Output;

mod common;
use common::{roofline, NCU_DL, NCU_METRICS};

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

#[test]
fn machine_v100_json_has_the_papers_ceilings() {
    let v = json_of(&roofline(&["machine", "v100", "--json"]));
    assert_eq!(v["id"], "v100");
    assert!((f(&v["warp_inst_per_s"]) / 1e9 - 489.6).abs() < 1e-9);
    assert!((f(&v["tensor_inst_per_s"]) / 1e9 - 244.0).abs() < 0.5);
    let txn = |level: &str| {
        v["txn_per_s"].as_array().and_then(|a| a.iter().find(|t| t["level"] == level)).map_or(f64::NAN, |t| f(&t["txn_per_s"]) / 1e9)
    };
    assert!((txn("l1") - 437.5).abs() < 1e-9);
    assert!((txn("l2") - 93.6).abs() < 0.05);
    assert!((txn("dram") - 25.9).abs() < 0.05);
    assert!((txn("shared") - 109.4).abs() < 0.05);
    let walls: Vec<f64> = v["walls"].as_array().map_or(Vec::new(), |a| a.iter().map(|w| f(&w["inst_per_txn"])).collect());
    assert_eq!(walls, [1.0, 0.25, 0.125, 1.0 / 32.0, 1.0, 1.0 / 32.0]);
    assert_eq!(v["flops_per_tensor_inst"], 512.0);
    assert!(v["theoretical"]["memory"].is_array() && v["empirical"]["memory"].is_array());
}

#[test]
fn machine_clock_base_rescales() {
    let v = json_of(&roofline(&["machine", "v100", "--clock", "base", "--basis", "theoretical", "--json"]));
    let ridge = v["ridges"]
        .as_array()
        .and_then(|a| a.iter().find(|r| r["compute"] == "FP64" && r["memory"] == "HBM"))
        .map_or(f64::NAN, |r| f(&r["flops_per_byte"]));
    assert!((ridge - 7.5).abs() < 0.05, "{ridge}");
    assert!((f(&v["clock_hz"]) - 1312e6).abs() < 1.0);
}

#[test]
fn machine_list() {
    let out = roofline(&["machine", "--list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for id in ["v100", "a100", "h100", "h200", "mi250x", "mi300x", "max1550", "epyc-7763"] {
        assert!(text.lines().any(|l| l.starts_with(id)), "{id} missing from {text}");
    }
    let v = json_of(&roofline(&["machine", "--list", "--json"]));
    assert!(v.as_array().is_some_and(|a| a.len() >= 10));
}

#[test]
fn analyze_joins_one_metric_per_file() {
    let paths: Vec<String> = NCU_METRICS.iter().map(|m| format!("{NCU_DL}{m}")).collect();
    let mut args = vec!["analyze", "--machine", "v100", "--clock", "base", "--json"];
    args.extend(paths.iter().map(String::as_str));
    let v = json_of(&roofline(&args));
    let files = v["files"].as_array().expect("files");
    assert_eq!(files.len(), 5);
    assert!(files.iter().all(|f| f["format"] == "ncu-details" && f["path"].is_string()));
    assert_eq!(v["machine"]["name"], "NVIDIA V100 SXM2");
    assert!(v["machine"]["compute"][0]["flops_per_s"].is_f64() && v["machine"]["memory"][0]["bytes_per_s"].is_f64());
    let kernels = v["kernels"].as_array().expect("kernels");
    assert!(!kernels.is_empty());
    for k in kernels {
        // Every file contributed: time from cycles / clock, FLOPs from FFMA + tensor, DRAM bytes.
        assert!(f(&k["time_s"]) > 0.0, "{}", k["name"]);
        assert!(k["flops"]["total"].is_f64(), "{}", k["name"]);
        assert!(k["bytes"]["dram"].is_f64(), "{}", k["name"]);
        assert!(k["launches"].as_u64().is_some_and(|n| n >= 1));
        assert!(k["flops"]["fp64"].is_null(), "not measured is null, never 0");
        assert!(k["summary"].as_str().is_some_and(|s| !s.is_empty()));
        for key in ["warp_inst", "thread_inst", "global_ldst_inst", "shared_ldst_inst"] {
            assert!(k.get(key).is_some(), "{key}");
        }
        for key in ["global", "local", "shared", "l2", "dram"] {
            assert!(k["txn"].get(key).is_some(), "txn.{key}");
        }
    }
    let tensor = kernels.iter().find(|k| k["name"].as_str().is_some_and(|n| n.starts_with("volta_fp16_s884cudnn"))).expect("a tensor-core kernel");
    // tensor FLOPs = tensor-pipe instructions × 512 on V100 (NERSC recipe).
    assert_eq!(f(&tensor["flops"]["tensor"]), 512.0 * f(&tensor["tensor_inst"]));
    assert_eq!(tensor["guidance"]["binding"]["compute"], "tensor");
    let ranks: Vec<u64> = kernels.iter().filter_map(|k| k["guidance"]["rank"].as_u64()).collect();
    assert!(ranks.contains(&1));
    assert!(f(&v["whole_run_speedup"]) >= 1.0);
    assert!(v["transfers"].is_array());
}

#[test]
fn analyze_without_machine_has_no_guidance() {
    let path = format!("{NCU_DL}dram__bytes.sum");
    let v = json_of(&roofline(&["analyze", "--json", &path]));
    assert!(v["machine"].is_null());
    let k = &v["kernels"][0];
    assert!(k["guidance"].is_null());
    assert!(k["time_s"].is_null() && f(&k["bytes"]["dram"]) > 0.0);
    assert_eq!(k["summary"], "no time measured, so it cannot be placed against a roof");
}

#[test]
fn analyze_table_and_help() {
    let path = format!("{NCU_DL}dram__bytes.sum");
    let out = roofline(&["analyze", "--machine", "a100", &path]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bound by"));
    let help = roofline(&["--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for word in ["analyze", "machine", "plot", "--machine", "--clock", "--basis", "--json", "--list", "--output", "EXIT CODES"] {
        assert!(text.contains(word), "--help lacks {word}");
    }
}

#[test]
fn errors_name_the_file_and_set_the_exit_code() {
    let out = roofline(&["analyze", "/nonexistent/profile.csv"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/profile.csv"));

    let not_a_profile = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = roofline(&["analyze", not_a_profile]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Cargo.toml"));

    for args in [&["frobnicate"][..], &["analyze"], &["analyze", "--machine", "no-such-gpu", not_a_profile], &["machine"], &["analyze", "--bogus"], &["plot", not_a_profile]] {
        let out = roofline(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn plot_writes_an_svg() {
    let dir = std::env::temp_dir().join(format!("roofline-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("chart.svg");
    let paths: Vec<String> = NCU_METRICS.iter().map(|m| format!("{NCU_DL}{m}")).collect();
    let mut args = vec!["plot", "--machine", "v100", "-o", svg.to_str().unwrap_or("chart.svg")];
    args.extend(paths.iter().map(String::as_str));
    let out = roofline(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg") || text.starts_with("<?xml"), "{}", &text[..text.len().min(80)]);
    let _ = std::fs::remove_dir_all(&dir);
}
