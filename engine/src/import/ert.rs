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

use super::json::{JsonDocument, JsonText, Loose};
use super::machine::{new_machine, push_compute, push_memory, slug};
use super::table::find_line;
use super::{parse_number, Imported, Importer};
use crate::error::ImportError;
use crate::model::{ComputeKind, Level, Machine};
use crate::units::GIGA;
use serde::Deserialize;

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

/// ERT's `roofline.json`, as far as it is read. Sections and tables may be missing; the
/// metadata's values vary in shape between ERT versions (`"HOSTNAME": ["host", [], […]]` or
/// a string) and are read leniently ([`Loose`]), as are `data` entries that are not
/// `[label, number]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ErtDocument {
    pub empirical: Option<ErtSection>,
    /// `ERT_SPEC_*` numbers of the config (vendor peaks), when ERT wrote them.
    pub spec: Option<ErtSection>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ErtSection {
    pub gbytes: Option<ErtTable>,
    pub gflops: Option<ErtTable>,
    pub metadata: Option<ErtMetadata>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ErtTable {
    /// `[label, GB/s or GFLOP/s]` pairs.
    pub data: Vec<Loose<(String, f64)>>,
    pub metadata: Option<ErtMetadata>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ErtMetadata {
    #[serde(rename = "HOSTNAME")]
    pub hostname: Option<Loose<StrOrList>>,
    #[serde(rename = "ERT_VERSION")]
    pub ert_version: Option<Loose<StrOrList>>,
    #[serde(rename = "CONFIG")]
    pub config: Option<Loose<ErtConfig>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ErtConfig {
    #[serde(rename = "ERT_PRECISION")]
    pub precision: Option<Loose<StrOrList>>,
}

/// A config value: `"FP64"` or `["FP64", …]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum StrOrList {
    One(String),
    List(Vec<Loose<String>>),
}

/// The string of a config value, or the first item of a list if it is a string.
fn first_str(v: &Option<Loose<StrOrList>>) -> Option<String> {
    match v.as_ref()?.value()? {
        StrOrList::One(s) => Some(s.clone()),
        StrOrList::List(items) => items.first()?.value().cloned(),
    }
}

fn add_section(m: &mut Machine, section: Option<&ErtSection>, suffix: &str, kind: ComputeKind) {
    let pairs = |t: Option<&ErtTable>| t.map_or(&[][..], |t| t.data.as_slice()).iter().filter_map(Loose::value).cloned().collect::<Vec<_>>();
    for (label, gbs) in pairs(section.and_then(|s| s.gbytes.as_ref())) {
        if let Some(l) = level(&label) {
            push_memory(m, &format!("{label}{suffix}"), l, gbs * GIGA);
        }
    }
    for (label, gf) in pairs(section.and_then(|s| s.gflops.as_ref())) {
        let name = if label.eq_ignore_ascii_case("GFLOPs") { format!("{kind:?}").to_ascii_uppercase() } else { label };
        push_compute(m, &format!("{name}{suffix}"), kind, gf * GIGA);
    }
}

/// Reads ERT's `roofline.json` from a parsed document: the machine it measured.
pub fn import_document(file: &str, doc: &impl JsonDocument) -> Result<Imported, ImportError> {
    let v: ErtDocument = doc.read().map_err(|e| ImportError::new(file, e.line, format!("invalid ERT JSON: {e}")))?;
    let emp = v.empirical.as_ref().ok_or_else(|| ImportError::new(file, None, "the ERT JSON has no \"empirical\" section"))?;
    let meta = emp.metadata.as_ref();
    let host = meta
        .and_then(|m| first_str(&m.hostname))
        .or_else(|| emp.gbytes.as_ref().and_then(|g| g.metadata.as_ref()).and_then(|m| first_str(&m.hostname)))
        .unwrap_or_else(|| "unknown host".to_string());
    let config = meta.and_then(|m| m.config.as_ref()).and_then(Loose::value);
    let kind = precision(&config.and_then(|c| first_str(&c.precision)).unwrap_or_default());
    let version = meta.and_then(|m| first_str(&m.ert_version)).unwrap_or_default();
    let mut m = new_machine(&slug("ert", &host), &format!("{host} (ERT)"), &format!("Empirical Roofline Toolkit {version} roofline.json ({file})"));
    add_section(&mut m, Some(emp), "", kind);
    add_section(&mut m, v.spec.as_ref(), " (spec)", kind);
    if m.memory.is_empty() && m.compute.is_empty() {
        return Err(ImportError::new(file, None, "the ERT JSON has no bandwidth or GFLOP/s numbers"));
    }
    Ok(Imported { machine: Some(m), ..Imported::default() })
}

impl Importer for ErtJson {
    fn format(&self) -> &'static str {
        "ert-json"
    }

    fn detect(&self, text: &str) -> bool {
        text.trim_start().starts_with('{') && text.contains("\"empirical\"") && text.contains("\"gbytes\"")
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        import_document(file, &JsonText(text))
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
