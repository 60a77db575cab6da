//! Intel Advisor roofs as CSV: `advisor --report=roofs --format=csv --project-dir=./adv
//! --report-output=roofs.csv` (add `--gpu` for GPU roofs). One row per roof: name, value in
//! bytes/s (memory) or FLOP/s / OP/s (compute), type `memory` or `compute`, and in recent
//! versions the device (`CPU`/`GPU`). Header `Name,Bandwidth,Type[,Device]`.
//!
//! Advisor measures every roof twice: for all cores ("DP Vector FMA Peak") and for one
//! thread ("DP Vector FMA Peak (single-threaded)", "L1 bandwidth (single-threaded)"; names as
//! `advixe-cl --report=roofs` prints them, e.g. in CSCS's ReFrame Advisor check). Both sets
//! are kept: the all-core roofs are the file's machine ([`ALL_CORES_ID`]), the single-threaded
//! ones an alternative machine ([`SINGLE_THREAD_ID`], roof names without the suffix) for a
//! single-threaded code, which the user picks in the machine picker.
//!
//! Mapping: `L1`/`L2`/`L3`/`DRAM`/`GTI`/`SLM`/`Shared Local Memory` bandwidth → levels (GTI,
//! the GPU's interface to memory, counts as DRAM); `DP …` → FP64, `SP …` → FP32, `HP …`/`Half`
//! → FP16, `Int…` → integer. Matrix-engine roofs (`XMX`, `DPAS`, `AMX`, `Matrix`) become matrix
//! ceilings of the data type the name says (`XMX BF16 Peak` → BF16 matrix; FP64, TF32, FP32,
//! FP16, BF16, FP8); integer ones (`XMX INT8`) stay integer roofs, because Advisor counts that
//! work as INTOP; a matrix roof whose name says no type is a matrix roof of no type.
//! Within a kind the highest roof comes first.

use crate::domain::DataType;
use crate::error::ImportError;
use crate::import::machine::{new_machine, push_compute, push_matrix, push_memory};
use crate::import::table::{cell, find_line, header_starts_with, open_table};
use crate::import::{parse_number, Imported, Importer};
use crate::model::{ComputeKind, Level, Machine};

pub struct AdvisorRoofs;

/// The id of the machine of all-core roofs.
pub const ALL_CORES_ID: &str = "advisor-roofs";
/// The id of the machine of single-threaded roofs.
pub const SINGLE_THREAD_ID: &str = "advisor-roofs-1t";

fn is_header(l: &str) -> bool {
    // The first cell, quoted or not, begins `Name` or `name`: checked first, since detection
    // asks this of up to 5,000 lines of every file that is not an earlier format's.
    let first = l.trim_start_matches('\u{feff}');
    let first = first.strip_prefix('"').unwrap_or(first);
    if !(first.starts_with("Name") || first.starts_with("name")) {
        return false;
    }
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

/// What a compute roof bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Roof {
    Vector(ComputeKind),
    Matrix(Option<DataType>),
}

/// The words of a roof name, lower case: `XMX BF16 Peak` → `xmx`, `bf16`, `peak`.
fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_ascii_lowercase).collect()
}

/// The data type a matrix roof's name says, if it says one; `Err(())` for an integer type.
fn matrix_type(words: &[String]) -> Result<Option<DataType>, ()> {
    for w in words {
        let t = match w.as_str() {
            "fp64" | "dp" | "double" => DataType::Fp64,
            "tf32" => DataType::Tf32,
            "fp32" | "sp" | "single" => DataType::Fp32,
            "fp16" | "hp" | "half" => DataType::Fp16,
            "bf16" | "bfloat16" => DataType::Bf16,
            "fp8" | "bf8" | "hf8" => DataType::Fp8,
            _ if w.starts_with("int") || w.starts_with("uint") || w == "i8" || w == "u8" => return Err(()),
            _ => continue,
        };
        return Ok(Some(t));
    }
    Ok(None)
}

fn compute_roof(name: &str) -> Option<Roof> {
    let n = name.to_ascii_lowercase();
    let w = words(name);
    if w.iter().any(|w| matches!(w.as_str(), "xmx" | "dpas" | "amx" | "matrix" | "systolic")) {
        return Some(match matrix_type(&w) {
            Ok(t) => Roof::Matrix(t),
            Err(()) => Roof::Vector(ComputeKind::Int),
        });
    }
    let kind = if n.starts_with("dp ") || n.contains("fp64") {
        ComputeKind::Fp64
    } else if n.starts_with("sp ") || n.contains("fp32") {
        ComputeKind::Fp32
    } else if n.starts_with("hp ") || n.contains("half") || n.contains("fp16") {
        ComputeKind::Fp16
    } else if n.starts_with("int") {
        ComputeKind::Int
    } else {
        return None;
    };
    Some(Roof::Vector(kind))
}

/// A roof's name without Advisor's single-threaded suffix, and whether it had one.
fn single_threaded(name: &str) -> (String, bool) {
    for suffix in ["(single-threaded)", "(single thread)", "(single-thread)"] {
        if let Some(i) = name.to_ascii_lowercase().find(suffix) {
            let base = format!("{}{}", name.get(..i).unwrap_or("").trim_end(), name.get(i + suffix.len()..).unwrap_or(""));
            return (base.trim().to_string(), true);
        }
    }
    (name.to_string(), false)
}

/// The roofs of one set (all cores, or one thread), before they become a machine.
#[derive(Default)]
struct RoofSet {
    memory: Vec<(String, Level, f64)>,
    compute: Vec<(String, Roof, f64)>,
}

impl RoofSet {
    fn is_empty(&self) -> bool {
        self.memory.is_empty() && self.compute.is_empty()
    }

    fn into_machine(mut self, id: &str, name: &str, source: &str) -> Machine {
        self.memory.sort_by(|a, b| b.2.total_cmp(&a.2));
        self.compute.sort_by(|a, b| b.2.total_cmp(&a.2));
        let mut m = new_machine(id, name, source);
        for (n, level, v) in self.memory {
            push_memory(&mut m, &n, level, v);
        }
        for (n, roof, v) in self.compute {
            match roof {
                Roof::Vector(kind) => push_compute(&mut m, &n, kind, v),
                Roof::Matrix(Some(t)) => push_matrix(&mut m, &n, t, v),
                Roof::Matrix(None) => push_compute(&mut m, &n, ComputeKind::Tensor, v),
            }
        }
        m
    }
}

/// A file's roofs as Advisor names them, sorted into the all-core and the single-threaded set;
/// shared by the roofs CSV and the HTML report ([`super::html`]), which name roofs alike.
#[derive(Default)]
pub(super) struct Roofs {
    all: RoofSet,
    one: RoofSet,
}

impl Roofs {
    /// Adds one roof: `value` in bytes/s for a memory roof, FLOP/s (OP/s) for a compute one.
    /// Roofs this reader does not draw (`Scalar …`, unknown levels) are left out.
    pub(super) fn add(&mut self, raw_name: &str, is_memory: bool, value: f64) {
        let (name, is_1t) = single_threaded(raw_name.trim());
        let set = if is_1t { &mut self.one } else { &mut self.all };
        if is_memory {
            if let Some(level) = memory_level(&name) {
                set.memory.push((name, level, value));
            }
        } else if let Some(roof) = compute_roof(&name) {
            set.compute.push((name, roof, value));
        }
    }

    /// The file's machine and its alternatives, or `None` when no roof was read. `source`
    /// says where the numbers come from. The all-core set is the machine when it has compute
    /// roofs; when only the single-threaded set has them, that set is the machine instead
    /// (a machine without compute roofs draws no horizontal roof at all) and `warnings` says
    /// so, naming `file`.
    pub(super) fn into_machines(self, file: &str, source: &str, warnings: &mut Vec<ImportError>) -> Option<(Machine, Vec<Machine>)> {
        let Roofs { all, one } = self;
        let source_1t = format!("{source}, single-threaded roofs");
        let all_m = |set: RoofSet| set.into_machine(ALL_CORES_ID, "Intel Advisor roofs", source);
        let one_m = |set: RoofSet| set.into_machine(SINGLE_THREAD_ID, "Intel Advisor roofs (single-threaded)", &source_1t);
        Some(match (all.is_empty(), one.is_empty()) {
            (true, true) => return None,
            (false, true) => (all_m(all), Vec::new()),
            // Only single-threaded roofs: they are all the file has.
            (true, false) => (one_m(one), Vec::new()),
            (false, false) if all.compute.is_empty() && !one.compute.is_empty() => {
                warnings.push(ImportError::new(
                    file,
                    None,
                    "the all-core roofs have no compute roof, so the single-threaded roofs are drawn (with their compute roofs); the all-core memory roofs are the alternative machine \"Intel Advisor roofs\"",
                ));
                (one_m(one), vec![all_m(all)])
            }
            (false, false) => (all_m(all), vec![one_m(one)]),
        })
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
        let mut roofs = Roofs::default();
        for rec in records {
            let raw = cell(&rec, 0).trim();
            if raw.is_empty() {
                continue;
            }
            let Some(value) = parse_number(cell(&rec, 1)) else { continue };
            match cell(&rec, 2).trim().to_ascii_lowercase().as_str() {
                "memory" => roofs.add(raw, true, value),
                "compute" => roofs.add(raw, false, value),
                other => {
                    return Err(ImportError::new(file, Some(rec.line), format!("expected roof type \"memory\" or \"compute\", found {other:?}")));
                }
            }
        }
        let mut warnings = Vec::new();
        let source = format!("Intel Advisor --report=roofs ({file})");
        let (machine, alternatives) =
            roofs.into_machines(file, &source, &mut warnings).ok_or_else(|| ImportError::new(file, Some(line), "the Advisor roofs table has no memory or compute roof"))?;
        Ok(Imported { machine: Some(machine), alternatives, warnings, ..Imported::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roof_names_map_to_ceilings() {
        assert_eq!(compute_roof("XMX BF16 Peak"), Some(Roof::Matrix(Some(DataType::Bf16))));
        assert_eq!(compute_roof("DPAS FP16 Peak"), Some(Roof::Matrix(Some(DataType::Fp16))));
        assert_eq!(compute_roof("AMX TF32 Peak"), Some(Roof::Matrix(Some(DataType::Tf32))));
        assert_eq!(compute_roof("XMX INT8 Peak"), Some(Roof::Vector(ComputeKind::Int)));
        assert_eq!(compute_roof("XMX Peak"), Some(Roof::Matrix(None)));
        assert_eq!(compute_roof("DP Vector FMA Peak"), Some(Roof::Vector(ComputeKind::Fp64)));
        assert_eq!(compute_roof("Int64 Vector Add Peak"), Some(Roof::Vector(ComputeKind::Int)));
        assert_eq!(compute_roof("Scalar Add Peak"), None);
        assert_eq!(single_threaded("L1 bandwidth (single-threaded)"), ("L1 bandwidth".to_string(), true));
        assert_eq!(single_threaded("DRAM Bandwidth (single node)"), ("DRAM Bandwidth (single node)".to_string(), false));
    }
}
