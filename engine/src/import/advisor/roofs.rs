//! Intel Advisor roofs as CSV: `advisor --report=roofs --format=csv --project-dir=./adv
//! --report-output=roofs.csv` (add `--gpu` for GPU roofs). One row per roof: name, value in
//! bytes/s (memory) or FLOP/s / OP/s (compute), type `memory` or `compute`, and in recent
//! versions the device (`CPU`/`GPU`). Header `Name,Bandwidth,Type[,Device]`.
//!
//! Mapping: `L1`/`L2`/`L3`/`DRAM`/`GTI`/`SLM`/`Shared Local Memory` bandwidth → levels (GTI, the GPU's
//! interface to memory, counts as DRAM); `DP …` → FP64, `SP …` → FP32, `HP …`/`Half` → FP16,
//! `Int…` → integer, `XMX`/`DPAS`/`Matrix` → tensor; `(single-threaded)` roofs are skipped in
//! favour of the whole-machine ones. Within a kind the highest roof comes first.

use crate::error::ImportError;
use crate::import::machine::{new_machine, push_compute, push_memory};
use crate::import::table::{cell, find_line, header_starts_with, open_table};
use crate::import::{parse_number, Imported, Importer};
use crate::model::{ComputeKind, Level};

pub struct AdvisorRoofs;

fn is_header(l: &str) -> bool {
    ["Name", "name"].iter().any(|n| header_starts_with(l, &[n, "Bandwidth", "Type"]) || header_starts_with(l, &[n, "bandwidth", "type"]))
}

fn memory_level(name: &str) -> Option<Level> {
    let n = name.to_ascii_lowercase();
    if n.starts_with("l1") {
        Some(Level::L1)
    } else if n.starts_with("l2") {
        Some(Level::L2)
    } else if n.starts_with("l3") || n.starts_with("llc") {
        Some(Level::L3)
    } else if n.starts_with("dram") || n.starts_with("hbm") || n.starts_with("mcdram") || n.starts_with("gti") {
        Some(Level::Dram)
    } else if n.starts_with("slm") || n.starts_with("shared local") {
        Some(Level::Shared)
    } else {
        None
    }
}

fn compute_kind(name: &str) -> Option<ComputeKind> {
    let n = name.to_ascii_lowercase();
    if n.contains("xmx") || n.contains("dpas") || n.contains("matrix") {
        Some(ComputeKind::Tensor)
    } else if n.starts_with("dp ") || n.contains("fp64") {
        Some(ComputeKind::Fp64)
    } else if n.starts_with("sp ") || n.contains("fp32") {
        Some(ComputeKind::Fp32)
    } else if n.starts_with("hp ") || n.contains("half") || n.contains("fp16") {
        Some(ComputeKind::Fp16)
    } else if n.starts_with("int") {
        Some(ComputeKind::Int)
    } else {
        None
    }
}

impl Importer for AdvisorRoofs {
    fn format(&self) -> &'static str {
        "advisor-roofs"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no Advisor roofs header found"))?;
        let (_, records) = open_table(text, line, start);
        let mut mem: Vec<(String, Level, f64)> = Vec::new();
        let mut comp: Vec<(String, ComputeKind, f64)> = Vec::new();
        for rec in records {
            let name = cell(&rec, 0).trim();
            if name.is_empty() || name.contains("single-threaded") || name.contains("single thread") {
                continue;
            }
            let Some(value) = parse_number(cell(&rec, 1)) else { continue };
            match cell(&rec, 2).trim().to_ascii_lowercase().as_str() {
                "memory" => {
                    if let Some(level) = memory_level(name) {
                        mem.push((name.to_string(), level, value));
                    }
                }
                "compute" => {
                    if let Some(kind) = compute_kind(name) {
                        comp.push((name.to_string(), kind, value));
                    }
                }
                other => {
                    return Err(ImportError::new(file, Some(rec.line), format!("expected roof type \"memory\" or \"compute\", found {other:?}")));
                }
            }
        }
        mem.sort_by(|a, b| b.2.total_cmp(&a.2));
        comp.sort_by(|a, b| b.2.total_cmp(&a.2));
        let mut m = new_machine("advisor-roofs", "Intel Advisor roofs", &format!("Intel Advisor --report=roofs ({file})"));
        for (n, level, v) in mem {
            push_memory(&mut m, &n, level, v);
        }
        for (n, kind, v) in comp {
            push_compute(&mut m, &n, kind, v);
        }
        if m.memory.is_empty() && m.compute.is_empty() {
            return Err(ImportError::new(file, Some(line), "the Advisor roofs table has no memory or compute roof"));
        }
        Ok(Imported { machine: Some(m), ..Imported::default() })
    }
}
