//! rocprof-compute (Omniperf) machine files, written next to `pmc_perf.csv` by
//! `rocprof-compute profile -n NAME -- ./app` (Omniperf: `omniperf profile …`):
//!
//! * `roofline.csv`: the empirical roofline micro-benchmark, one row per device:
//!   `device,HBMBw,…,L2Bw,…,L1Bw,…,LDSBw,…,FP32Flops,…,FP64Flops,…,MFMA{BF16,F16,F32,F64}Flops,
//!   MFMAI8Ops` in GB/s and GFLOP/s (each with Low/High variants, which are ignored);
//! * `sysinfo.csv`: one row of machine facts; its `hbm_bw` (GB/s, theoretical) gives the HBM
//!   ceiling, and the GPU model, CU count and clocks are recorded in the machine's source.
//!   The same row describes the GPU ([`sysinfo_device`]): `gpu_model` ("MI200"), `gpu_arch`
//!   ("gfx90a"), `cu_per_gpu`, `max_sclk` and `max_mclk` (MHz), `gpu_l2` (KiB, total), with
//!   the units rocprof-compute documents for them (`ROCm/rocprofiler-compute`,
//!   `src/utils/specs.py`, `MachineSpecs`). `gpu_memory` ("KB") is not read: which KB it
//!   means is not documented.

use crate::error::ImportError;
use crate::domain::{DataType, Device, Vendor};
use crate::import::machine::{new_machine, push_compute, push_matrix, push_memory, slug};
use crate::import::table::{cell, find_line, header_starts_with, open_table, Columns};
use crate::import::records::Record;
use crate::import::{parse_number, Imported, Importer};
use crate::model::{ComputeKind, Level};
use crate::units::GIGA;

pub struct RocprofComputeRoofline;
pub struct RocprofComputeSysinfo;

fn is_roofline_header(l: &str) -> bool {
    header_starts_with(l, &["device", "HBMBw"])
}

fn is_sysinfo_header(l: &str) -> bool {
    header_starts_with(l, &["workload_name"]) && l.contains("hbm_bw")
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
        if m.memory.is_empty() && m.compute.is_empty() {
            return Err(ImportError::new(file, Some(row.line), "the roofline row has no bandwidth or peak numbers"));
        }
        Ok(Imported { machine: Some(m), ..Imported::default() })
    }
}

impl Importer for RocprofComputeSysinfo {
    fn format(&self) -> &'static str {
        "rocprof-compute-sysinfo"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_sysinfo_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_sysinfo_header).ok_or_else(|| ImportError::new(file, None, "no sysinfo header found"))?;
        let (cols, mut records) = open_table(text, line, start);
        let row = records.next().ok_or_else(|| ImportError::new(file, Some(line + 1), "sysinfo has no data row"))?;
        let text_of = |name: &str| cols.get(name).map(|i| cell(&row, i).trim().to_string()).unwrap_or_default();
        let model = text_of("gpu_model");
        let arch = text_of("gpu_arch");
        let hbm_bw = cols
            .get("hbm_bw")
            .and_then(|i| parse_number(cell(&row, i)))
            .ok_or_else(|| ImportError::new(file, Some(row.line), "sysinfo has no numeric \"hbm_bw\" (GB/s)"))?;
        let source = format!(
            "rocprof-compute sysinfo ({file}): {} CUs, max sclk {} MHz, max mclk {} MHz, {} L2 channels, theoretical HBM {} GB/s",
            text_of("cu_per_gpu"),
            text_of("max_sclk"),
            text_of("max_mclk"),
            text_of("total_l2_chan"),
            hbm_bw
        );
        let mut m = new_machine(&slug("rocprof-compute", &format!("{model} {arch}")), &format!("AMD {model} ({arch})"), &source);
        push_memory(&mut m, "HBM (theoretical)", Level::Dram, hbm_bw * GIGA);
        m.clock_hz = cols.get("max_sclk").and_then(|i| parse_number(cell(&row, i))).map(|mhz| mhz * 1e6);
        let device = sysinfo_device(&cols, &row);
        // The machine says what the device says, so that it can be matched to the catalogue.
        m.vendor = Some(Vendor::Amd);
        m.arch = device.arch.clone();
        m.sm_count = device.sm_count;
        m.l2_bytes = device.l2_bytes;
        let devices = if device.is_empty() { Vec::new() } else { vec![device] };
        Ok(Imported { machine: Some(m), devices, ..Imported::default() })
    }
}

/// The GPU a `sysinfo.csv` row describes (module doc). Cells that are empty, `NA` or not
/// numbers where a number is due are left unknown.
pub fn sysinfo_device(cols: &Columns, row: &Record) -> Device {
    let text = |name: &str| cols.get(name).map(|i| cell(row, i).trim()).filter(|t| !t.is_empty() && !t.eq_ignore_ascii_case("NA") && !t.eq_ignore_ascii_case("N/A")).map(str::to_string);
    let number = |name: &str| cols.get(name).and_then(|i| parse_number(cell(row, i))).filter(|v| *v > 0.0);
    Device {
        name: text("gpu_model"),
        vendor: Some(Vendor::Amd),
        arch: text("gpu_arch"),
        sm_count: number("cu_per_gpu").filter(|v| v.fract() == 0.0 && *v <= f64::from(u32::MAX)).map(|v| v as u32),
        l2_bytes: number("gpu_l2").map(|kib| kib * 1024.0),
        max_sm_clock_hz: number("max_sclk").map(|mhz| mhz * 1e6),
        memory_clock_hz: number("max_mclk").map(|mhz| mhz * 1e6),
        ..Device::default()
    }
    .normalised()
}
