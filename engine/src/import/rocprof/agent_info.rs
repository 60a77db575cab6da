//! rocprofv3 agent info (`<pid>_agent_info.csv`), written beside every rocprofv3 trace or
//! counter collection: one row per HSA agent (CPU or GPU). Layout as in the ROCprofiler-SDK
//! rocprofv3 guide ("Agent info"): `"Node_Id","Logical_Node_Id","Agent_Type",…,"Wave_Front_Size",
//! "Num_Xcc","Cu_Count",…,"Max_Engine_Clk_Fcompute",…,"Gpu_Id",…,"Name","Vendor_Name",
//! "Product_Name","Model_Name"`.
//!
//! Only devices are read, one per GPU agent: `Name` is the gfx target (`gfx942`), `Cu_Count`
//! the compute units, `Max_Engine_Clk_Fcompute` the engine clock in MHz (rocminfo's "Max Clock
//! Freq. (MHz)"). The device is named "GPU <Node_Id>", as the counter and trace files name
//! their `Agent_Id` ("the GPU identifier to which the kernel was submitted"), so that loading
//! both describes one device; the product name (`Product_Name`, "Radeon RX Vega") has no field
//! of its own and is not kept.

use crate::domain::{Device, Vendor};
use crate::error::ImportError;
use crate::import::table::{cell, find_line, header_starts_with, open_table};
use crate::import::{parse_number, Imported, Importer};

pub struct RocprofV3AgentInfo;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Node_Id", "Logical_Node_Id", "Agent_Type"])
}

impl Importer for RocprofV3AgentInfo {
    fn format(&self) -> &'static str {
        "rocprofv3-agent-info"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no rocprofv3 agent info header found"))?;
        let (cols, records) = open_table(text, line, start);
        let node = cols.need(file, line, &["Node_Id"])?;
        let ty = cols.need(file, line, &["Agent_Type"])?;
        let (name, cus, clock) = (cols.get("Name"), cols.get("Cu_Count"), cols.get("Max_Engine_Clk_Fcompute"));
        let mut devices = Vec::new();
        for rec in records {
            if cell(&rec, ty).trim() != "GPU" {
                continue; // CPU agents, blank lines
            }
            let id = parse_number(cell(&rec, node)).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a node id, found {:?}", cell(&rec, node)))
            })?;
            let positive = |c: Option<usize>| c.and_then(|i| parse_number(cell(&rec, i))).filter(|v| *v > 0.0);
            let arch = name.map(|i| cell(&rec, i).trim().to_string()).filter(|a| a.starts_with("gfx"));
            devices.push(
                Device {
                    name: Some(format!("GPU {id}")),
                    vendor: Some(Vendor::Amd),
                    arch,
                    sm_count: positive(cus).filter(|v| v.fract() == 0.0 && *v <= f64::from(u32::MAX)).map(|v| v as u32),
                    max_sm_clock_hz: positive(clock).map(|mhz| mhz * 1e6),
                    ..Device::default()
                }
                .normalised(),
            );
        }
        if devices.is_empty() {
            return Err(ImportError::new(file, Some(line), "the rocprofv3 agent info lists no GPU agent"));
        }
        Ok(Imported { devices, ..Imported::default() })
    }
}
