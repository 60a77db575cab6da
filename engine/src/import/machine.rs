//! Building a [`Machine`] from a file that describes one (ERT, Advisor roofs, rocprof-compute).
//!
//! Machines are constructed only here, so that fields the model adds later get their default
//! in one place.

use crate::domain::DataType;
use crate::model::{Ceiling, ComputeKind, Level, Machine, MemoryLevel};

/// An empty machine: ceilings are pushed by the importer.
pub fn new_machine(id: &str, name: &str, source: &str) -> Machine {
    Machine {
        id: id.to_string(),
        name: name.to_string(),
        source: source.to_string(),
        compute: Vec::new(),
        memory: Vec::new(),
        flops_per_tensor_inst: None,
        ..Default::default()
    }
}

/// Adds a vector (or integer) compute ceiling of `flops_per_s` (ignored unless positive and
/// finite).
pub fn push_compute(m: &mut Machine, name: &str, kind: ComputeKind, flops_per_s: f64) {
    if flops_per_s.is_finite() && flops_per_s > 0.0 {
        m.compute.push(Ceiling::vector(name, kind, flops_per_s));
    }
}

/// Adds a matrix ceiling of one data type under the file's own name ("MFMA FP16").
pub fn push_matrix(m: &mut Machine, name: &str, data_type: DataType, flops_per_s: f64) {
    if flops_per_s.is_finite() && flops_per_s > 0.0 {
        m.compute.push(Ceiling { name: name.to_string(), kind: ComputeKind::Tensor, data_type: Some(data_type), flops_per_s });
    }
}

/// Adds a memory ceiling of `bytes_per_s` (ignored unless positive and finite).
pub fn push_memory(m: &mut Machine, name: &str, level: Level, bytes_per_s: f64) {
    if bytes_per_s.is_finite() && bytes_per_s > 0.0 {
        m.memory.push(MemoryLevel { name: name.to_string(), level, bytes_per_s });
    }
}

/// A lower-case id from free text: `ert-edison`, `rocprof-compute-mi200`.
pub fn slug(prefix: &str, text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect();
    if words.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}-{}", words.join("-"))
    }
}

/// Combines a machine described by a second file into the first: ceilings the first lacks
/// (by level for memory, by name for compute) are added; the first file's numbers win.
pub fn merge(into: &mut Machine, other: Machine) {
    for m in other.memory {
        if !into.memory.iter().any(|x| x.level == m.level && x.name == m.name) {
            into.memory.push(m);
        }
    }
    for c in other.compute {
        if !into.compute.iter().any(|x| x.name == c.name) {
            into.compute.push(c);
        }
    }
    if into.flops_per_tensor_inst.is_none() {
        into.flops_per_tensor_inst = other.flops_per_tensor_inst;
    }
    // What the second file says about the processor and the first does not (rocprof-compute's
    // roofline.csv has no architecture, its sysinfo.csv has).
    macro_rules! fill {
        ($($f:ident),*) => { $( if into.$f.is_none() { into.$f = other.$f; } )* };
    }
    fill!(vendor, arch, generation, sm_count, memory_bytes, l2_bytes, clock_hz);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_the_first_numbers_and_fills_what_it_lacks() {
        let mut a = new_machine("a", "A", "roofline.csv");
        push_memory(&mut a, "HBM", Level::Dram, 1.0e12);
        let mut b = new_machine("b", "B", "sysinfo.csv");
        push_memory(&mut b, "HBM", Level::Dram, 1.6e12);
        (b.arch, b.sm_count, b.clock_hz) = (Some("gfx90a".into()), Some(104), Some(1.7e9));
        merge(&mut a, b);
        assert_eq!(a.memory.len(), 1);
        assert_eq!(a.memory[0].bytes_per_s, 1.0e12);
        assert_eq!((a.arch.as_deref(), a.sm_count, a.clock_hz), (Some("gfx90a"), Some(104), Some(1.7e9)));
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("ert", "edison"), "ert-edison");
        assert_eq!(slug("ert", "titan-login8.ccs.ornl.gov"), "ert-titan-login8-ccs-ornl-gov");
    }
}
