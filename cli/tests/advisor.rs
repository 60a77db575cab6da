//! Intel Advisor through the CLI: a CPU survey is never drawn or linked against a GPU, and the
//! HTML roofline report reads (issue 41). Samples are read in place from shared/samples/.

use roofline_engine::share;
use std::process::Output;

mod common;
use common::roofline;

const SURVEY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples/advisor/Intel-advisor-guide__example_profile_data_example_survey.csv");
const DG1_REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples/advisor-html/oneAPI-samples__roofline_gpu_mm_dpcpp_localmem_DG1_5120.html");

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_cpu_survey_links_against_a_cpu() {
    let out = roofline(&["link", SURVEY]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("do not say which CPU ran them: the link uses xeon-gold-6132"), "{}", stderr(&out));
    let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let view = share::decode(&url).expect("the link opens");
    assert_eq!(view.machine_id, "xeon-gold-6132", "a CPU from the catalogue, not the app's V100");
}

#[test]
fn a_cpu_survey_is_analysed_without_a_gpu() {
    let out = roofline(&["analyze", "--json", SURVEY]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(report["machine"].is_null(), "no roofs, no CPU named: no machine is assumed ({})", report["machine"]);
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("choose a CPU machine"), "{warnings}");
    assert!(!warnings.contains("GPU"), "{warnings}");
}

#[test]
fn the_html_report_is_analysed_against_its_own_roofs() {
    let out = roofline(&["analyze", "--json", DG1_REPORT]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["files"][0]["format"], "advisor-html");
    assert_eq!(report["machine"]["chosen"], "file");
    assert_eq!(report["device"]["name"], "DG1 [Iris Xe MAX Graphics]");
    // 2 × 5120³ FLOPs of the 5120 × 5120 matrix product, in 8.901744541 s.
    let k = &report["kernels"][0];
    let flops = k["flops"]["total"].as_f64().expect("FLOPs");
    assert!((flops / 268_435_456_000.0 - 1.0).abs() < 1e-12, "{flops}");
    assert_eq!(k["time_s"].as_f64(), Some(8.901744540999989));
}
