//! rocprof-compute's (Omniperf's) `sysinfo.csv`, written next to `pmc_perf.csv` by
//! `rocprof-compute profile -n NAME -- ./app`: one header line and one row describing the GPU
//! the workload ran on. It is read as that **device** (name, gfx target, CUs, clocks, L2), which
//! the dataset joins to the GPU index the counter tables give (`dataset::devices`); the
//! device's catalogue entry then gives the roofs. It describes no machine of its own: a
//! theoretical HBM roof beside the catalogue's (or beside `roofline.csv`'s measured one) would
//! make two DRAM levels, and which one judged would depend on the order of the files.
//!
//! Layouts (columns as `ROCm/rocm-systems`, `projects/rocprofiler-compute/src/utils/specs.py`,
//! `MachineSpecs`, writes them; the `version` column says which):
//!
//! * **legacy** (Omniperf 1.x, no `version` column): camel-case names, `…,gpu_soc,numSE,numCU,
//!   …,L1,L2,sclk,mclk,cur_sclk,cur_mclk,L2Banks,…,name,numSQC,…,hbmBW,…` (`gpu_soc` the gfx
//!   target, `name` the model, lower case: "mi200");
//! * **versions 1 and 2** (Omniperf 2.0 to rocprof-compute 3.1, ROCm 6.0–6.4; same columns):
//!   `workload_name,command,ip_blocks,timestamp,version,…,gpu_model,gpu_arch,gpu_l1,gpu_l2,
//!   cu_per_gpu,…,max_sclk,max_mclk,cur_sclk,cur_mclk,total_l2_chan,…,hbm_bw,num_xcd`;
//! * **version 3** (ROCm 6.5 and 7.0: MI300X, MI350): adds `gpu_series` and `gpu_chip_id`,
//!   drops `hbm_bw`, adds `num_hbm_channels`; `max_sclk` may be 0 and `max_mclk` empty (the
//!   MI350 sample).
//!
//! Units as `MachineSpecs` documents them: `gpu_l2` KiB, `max_sclk`/`max_mclk` MHz. Cells that
//! are empty, `NA`, 0 or not numbers where a number is due are left unknown. `gpu_memory`
//! ("KB" of an undocumented kind) and the HBM bandwidth (`hbm_bw`, GB/s) are not read.
//!
//! The model is rocprof-compute's name for the product (`mi_gpu_spec.yaml` maps the chip id to
//! it): "MI200", "MI300X_A1", "MI350" (chip id 30112, AMD's MI350X), "MI355" (30115, the
//! MI355X). The last two are given their product names, "MI350X" and "MI355X", so that the
//! catalogue finds them by name.

use crate::domain::{Device, Vendor};
use crate::error::ImportError;
use crate::import::records::Record;
use crate::import::table::{cell, find_line, header_starts_with, open_table, Columns};
use crate::import::{parse_number, Imported, Importer};

pub struct RocprofComputeSysinfo;

/// The header of every layout starts with `workload_name` and names the gfx target, as
/// `gpu_arch` (versions 1–3) or `gpu_soc` (legacy).
fn is_header(l: &str) -> bool {
    header_starts_with(l, &["workload_name"]) && (l.contains("gpu_arch") || l.contains("gpu_soc"))
}

/// The column of one fact in each layout: versions 1–3 first, then the legacy name.
struct Fact {
    current: &'static str,
    legacy: &'static str,
}

const MODEL: Fact = Fact { current: "gpu_model", legacy: "name" };
const ARCH: Fact = Fact { current: "gpu_arch", legacy: "gpu_soc" };
const CUS: Fact = Fact { current: "cu_per_gpu", legacy: "numCU" };
const L2_KIB: Fact = Fact { current: "gpu_l2", legacy: "L2" };
const SCLK_MHZ: Fact = Fact { current: "max_sclk", legacy: "sclk" };
const MCLK_MHZ: Fact = Fact { current: "max_mclk", legacy: "mclk" };

impl Importer for RocprofComputeSysinfo {
    fn format(&self) -> &'static str {
        "rocprof-compute-sysinfo"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no sysinfo header found"))?;
        let (cols, mut records) = open_table(text, line, start);
        let row = records.next().ok_or_else(|| ImportError::new(file, Some(line + 1), "sysinfo.csv has a header but no data row"))?;
        let device = sysinfo_device(&cols, &row);
        if device.arch.is_none() {
            let column = if cols.get(ARCH.current).is_some() { ARCH.current } else { ARCH.legacy };
            return Err(ImportError::new(file, Some(row.line), format!("expected the GPU's gfx target in column \"{column}\", found {:?}", text_of(&cols, &row, &ARCH).unwrap_or_default())));
        }
        Ok(Imported { devices: vec![device], ..Imported::default() })
    }
}

/// A fact's cell as text, in whichever layout the file has; `None` where empty or `NA`.
fn text_of(cols: &Columns, row: &Record, fact: &Fact) -> Option<String> {
    let i = cols.get(fact.current).or_else(|| cols.get(fact.legacy))?;
    let t = cell(row, i).trim();
    (!t.is_empty() && !t.eq_ignore_ascii_case("NA") && !t.eq_ignore_ascii_case("N/A")).then(|| t.to_string())
}

/// A fact's cell as a positive number.
fn number_of(cols: &Columns, row: &Record, fact: &Fact) -> Option<f64> {
    let i = cols.get(fact.current).or_else(|| cols.get(fact.legacy))?;
    parse_number(cell(row, i)).filter(|v| v.is_finite() && *v > 0.0)
}

/// The product name of rocprof-compute's model (module doc): upper case, and "MI350"/"MI355"
/// as AMD sells them, "MI350X"/"MI355X".
fn product_name(model: &str) -> String {
    let upper = model.to_ascii_uppercase();
    match upper.as_str() {
        "MI350" | "MI355" => format!("{upper}X"),
        _ => upper,
    }
}

/// The GPU a `sysinfo.csv` row describes (module doc).
pub fn sysinfo_device(cols: &Columns, row: &Record) -> Device {
    Device {
        name: text_of(cols, row, &MODEL).map(|m| product_name(&m)),
        vendor: Some(Vendor::Amd),
        arch: text_of(cols, row, &ARCH).filter(|a| a.starts_with("gfx")),
        sm_count: number_of(cols, row, &CUS).filter(|v| v.fract() == 0.0 && *v <= f64::from(u32::MAX)).map(|v| v as u32),
        l2_bytes: number_of(cols, row, &L2_KIB).map(|kib| kib * 1024.0),
        max_sm_clock_hz: number_of(cols, row, &SCLK_MHZ).map(|mhz| mhz * 1e6),
        memory_clock_hz: number_of(cols, row, &MCLK_MHZ).map(|mhz| mhz * 1e6),
        ..Device::default()
    }
    .normalised()
}
