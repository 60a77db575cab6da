//! rocprof-compute's (Omniperf's) `roofline.csv`, written next to `pmc_perf.csv` by
//! `rocprof-compute profile -n NAME -- ./app` (Omniperf: `omniperf profile …`): the empirical
//! roofline micro-benchmark, one row per device: `device,HBMBw,…,L2Bw,…,L1Bw,…,LDSBw,…,
//! FP32Flops,…,FP64Flops,…,MFMA{BF16,F16,F32,F64}Flops,MFMAI8Ops` in GB/s and GFLOP/s (each
//! with Low/High variants, which are ignored). The first device's row is read as a machine of
//! its own, measured: one level per memory (its `HBMBw` the only DRAM level), beside the
//! catalogue machine of the device the workload's `sysinfo.csv` describes ([`super::sysinfo`]),
//! never merged with it.

use crate::error::ImportError;
use crate::domain::{DataType, Vendor};
use crate::import::machine::{new_machine, push_compute, push_matrix, push_memory, slug};
use crate::import::table::{cell, find_line, header_starts_with, open_table};
use crate::import::{parse_number, Imported, Importer};
use crate::model::{ComputeKind, Level};
use crate::units::GIGA;

pub use super::sysinfo::RocprofComputeSysinfo;

pub struct RocprofComputeRoofline;

fn is_roofline_header(l: &str) -> bool {
    header_starts_with(l, &["device", "HBMBw"])
}


impl Importer for RocprofComputeRoofline {
    fn format(&self) -> &'static str {
        "rocprof-compute-roofline"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_roofline_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_roofline_header).ok_or_else(|| ImportError::new(file, None, "no roofline header found"))?;
        let (cols, mut records) = open_table(text, line, start);
        let row = records.next().ok_or_else(|| ImportError::new(file, Some(line + 1), "the roofline table has no device row"))?;
        let device = cell(&row, 0).trim().to_string();
        let get = |name: &str| cols.any(&[name]).and_then(|i| parse_number(cell(&row, i))).map(|v| v * GIGA);
        let mut m = new_machine(
            &slug("rocprof-compute", &format!("device {device}")),
            &format!("AMD GPU {device} (empirical)"),
            &format!("rocprof-compute roofline micro-benchmark ({file}, device {device})"),
        );
        for (col, name, level) in [("HBMBw", "HBM", Level::Dram), ("L2Bw", "L2", Level::L2), ("L1Bw", "L1", Level::L1), ("LDSBw", "LDS", Level::Shared)] {
            if let Some(v) = get(col) {
                push_memory(&mut m, name, level, v);
            }
        }
        for (col, name, kind) in [("FP64Flops", "FP64", ComputeKind::Fp64), ("FP32Flops", "FP32", ComputeKind::Fp32)] {
            if let Some(v) = get(col) {
                push_compute(&mut m, name, kind, v);
            }
        }
        for (col, name, data_type) in [
            ("MFMAF16Flops", "MFMA FP16", DataType::Fp16),
            ("MFMABF16Flops", "MFMA BF16", DataType::Bf16),
            ("MFMAF32Flops", "MFMA FP32", DataType::Fp32),
            ("MFMAF64Flops", "MFMA FP64", DataType::Fp64),
            ("MFMAI8Ops", "MFMA I8", DataType::Int8),
        ] {
            if let Some(v) = get(col) {
                push_matrix(&mut m, name, data_type, v);
            }
        }
        m.vendor = Some(Vendor::Amd);
        if m.memory.is_empty() && m.compute.is_empty() {
            return Err(ImportError::new(file, Some(row.line), "the roofline row has no bandwidth or peak numbers"));
        }
        Ok(Imported { machine: Some(m), ..Imported::default() })
    }
}
