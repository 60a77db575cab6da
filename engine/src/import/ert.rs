//! Empirical Roofline Toolkit (ERT) results: the `roofline.json` that `ert config` writes in
//! its results directory, and the per-experiment `sum` text file. Both describe a machine:
//! empirical bandwidth per memory level (GB/s) and peak GFLOP/s.
//!
//! `roofline.json`: `{"empirical": {"gbytes": {"data": [["L1", 1723.23], …]}, "gflops":
//! {"data": [["GFLOPs", 355.79]]}, "metadata": {…, "HOSTNAME": …, "CONFIG": {…}}}, "spec": {…}}`.
//! The optional "spec" section (`ERT_SPEC_*` of the config: vendor numbers) is added as extra
//! ceilings named "… (spec)", after the empirical ones.
//!
//! `sum`: lines `   <value> <label>` (`11.03 GFLOPs`, `1458.88 Weight`, `176.44 L1`, …
//! `18.30 DRAM`), then `META_DATA` and `KEY value` lines (`HOSTNAME`, `CONFIG`, …).
//!
//! ERT measures in the precision it was built for: `ERT_PRECISION` in the config (FP64 when
//! absent, ERT's default). L4 (eDRAM) has no level in the model and is skipped.

use super::machine::{new_machine, push_compute, push_memory, slug};
use super::table::find_line;
use super::{parse_number, Imported, Importer};
use crate::error::ImportError;
use crate::model::{ComputeKind, Level, Machine};
use crate::units::GIGA;
use crate::json::{self, Json};

pub struct ErtJson;
pub struct ErtSum;

fn level(label: &str) -> Option<Level> {
    match label.trim().to_ascii_uppercase().as_str() {
        "L1" => Some(Level::L1),
        "L2" => Some(Level::L2),
        "L3" | "LLC" => Some(Level::L3),
        "DRAM" | "HBM" | "MCDRAM" | "MEM" => Some(Level::Dram),
        _ => None,
    }
}

fn precision(p: &str) -> ComputeKind {
    match p.trim().to_ascii_uppercase().as_str() {
        "FP32" | "SP" | "FLOAT" => ComputeKind::Fp32,
        "FP16" | "HP" | "HALF" => ComputeKind::Fp16,
        _ => ComputeKind::Fp64,
    }
}

/// The `[label, value]` pairs of an ERT `data` array.
fn pairs(v: Option<&Json>) -> Vec<(String, f64)> {
    v.and_then(|d| d.get("data")).and_then(Json::as_array).map_or_else(Vec::new, |arr| {
        arr.iter()
            .filter_map(|p| Some((p.at(0)?.as_str()?.to_string(), p.at(1)?.as_f64()?)))
            .collect()
    })
}

/// First string of a config value (`["FP64"]` or `"FP64"`).
fn first_str(v: Option<&Json>) -> Option<String> {
    match v? {
        Json::String(s) => Some(s.clone()),
        Json::Array(a) => a.first().and_then(|x| x.as_str().map(str::to_string)),
        _ => None,
    }
}

fn add_section(m: &mut Machine, section: Option<&Json>, suffix: &str, kind: ComputeKind) {
    for (label, gbs) in pairs(section.and_then(|s| s.get("gbytes"))) {
        if let Some(l) = level(&label) {
            push_memory(m, &format!("{label}{suffix}"), l, gbs * GIGA);
        }
    }
    for (label, gf) in pairs(section.and_then(|s| s.get("gflops"))) {
        let name = if label.eq_ignore_ascii_case("GFLOPs") { format!("{kind:?}").to_ascii_uppercase() } else { label };
        push_compute(m, &format!("{name}{suffix}"), kind, gf * GIGA);
    }
}

impl Importer for ErtJson {
    fn format(&self) -> &'static str {
        "ert-json"
    }

    fn detect(&self, text: &str) -> bool {
        text.trim_start().starts_with('{') && text.contains("\"empirical\"") && text.contains("\"gbytes\"")
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let v = json::parse(text).map_err(|e| ImportError::new(file, Some(e.line), format!("invalid ERT JSON: {e}")))?;
        let emp = v.get("empirical").ok_or_else(|| ImportError::new(file, None, "the ERT JSON has no \"empirical\" section"))?;
        let meta = emp.get("metadata");
        let host = first_str(meta.and_then(|m| m.get("HOSTNAME")))
            .or_else(|| first_str(emp.get("gbytes").and_then(|g| g.get("metadata")).and_then(|m| m.get("HOSTNAME"))))
            .unwrap_or_else(|| "unknown host".to_string());
        let kind = precision(&first_str(meta.and_then(|m| m.get("CONFIG")).and_then(|c| c.get("ERT_PRECISION"))).unwrap_or_default());
        let version = first_str(meta.and_then(|m| m.get("ERT_VERSION"))).unwrap_or_default();
        let mut m = new_machine(&slug("ert", &host), &format!("{host} (ERT)"), &format!("Empirical Roofline Toolkit {version} roofline.json ({file})"));
        add_section(&mut m, Some(emp), "", kind);
        add_section(&mut m, v.get("spec"), " (spec)", kind);
        if m.memory.is_empty() && m.compute.is_empty() {
            return Err(ImportError::new(file, None, "the ERT JSON has no bandwidth or GFLOP/s numbers"));
        }
        Ok(Imported { machine: Some(m), ..Imported::default() })
    }
}

impl Importer for ErtSum {
    fn format(&self) -> &'static str {
        "ert-sum"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, |l| l.trim() == "META_DATA").is_some()
            && find_line(text, |l| {
                let mut w = l.split_whitespace();
                w.next().and_then(parse_number).is_some() && w.next() == Some("GFLOPs")
            })
            .is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let mut values: Vec<(String, f64)> = Vec::new();
        let mut host = String::from("unknown host");
        let mut kind = ComputeKind::Fp64;
        let mut in_meta = false;
        for l in text.lines() {
            let t = l.trim();
            if t == "META_DATA" {
                in_meta = true;
                continue;
            }
            if in_meta {
                if let Some(h) = t.strip_prefix("HOSTNAME") {
                    let h = h.trim().trim_start_matches(['(', '[']);
                    host = h.split([',', ')']).next().unwrap_or("").trim().trim_matches(['\'', '"']).to_string();
                }
                if let Some(i) = t.find("'ERT_PRECISION': ['") {
                    let rest = &t[i + 19..];
                    kind = precision(rest.split('\'').next().unwrap_or(""));
                }
                continue;
            }
            let mut w = t.split_whitespace();
            if let (Some(v), Some(label)) = (w.next().and_then(parse_number), w.next()) {
                values.push((label.to_string(), v));
            }
        }
        let mut m = new_machine(&slug("ert", &host), &format!("{host} (ERT)"), &format!("Empirical Roofline Toolkit sum file ({file})"));
        for (label, v) in &values {
            if label == "GFLOPs" {
                push_compute(&mut m, &format!("{kind:?}").to_ascii_uppercase(), kind, v * GIGA);
            } else if let Some(l) = level(label) {
                push_memory(&mut m, label, l, v * GIGA);
            }
        }
        if m.memory.is_empty() && m.compute.is_empty() {
            return Err(ImportError::new(file, None, "the ERT sum file has no bandwidth or GFLOP/s lines"));
        }
        Ok(Imported { machine: Some(m), ..Imported::default() })
    }
}
