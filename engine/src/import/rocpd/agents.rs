//! Agents (`rocpd_info_agent`) → devices.
//!
//! rocprofv3 writes one row per HSA agent (`generateRocpd.cpp`, `insert_agent_data`): `type`
//! `CPU` or `GPU`, `absolute_index` the node id, `name` the gfx target (`gfx942`),
//! `product_name` the marketing name ("AMD Instinct MI300X"), and `extdata` the whole agent
//! record as JSON (ROCprofiler-SDK's `rocprofiler_agent_v0_t`, saved field by field by
//! `cxx/serialization/save.hpp`): `cu_count` (compute units), `max_engine_clk_fcompute` (the
//! engine clock in MHz, rocminfo's "Max Clock Freq."), `wave_front_size` (64 on CDNA), as the
//! `agent_info.csv` columns `Cu_Count`, `Max_Engine_Clk_Fcompute`, `Wave_Front_Size` give them.
//!
//! Only GPU agents become devices. A device is named by its product name, which is what
//! identifies the catalogue machine; "GPU <absolute_index>" (the CSV readers' name for an
//! agent) when the row has none.

use super::open::{column_or_null, columns, int, query_rows, real, text, Segment};
use crate::domain::{Device, Vendor};
use crate::error::ImportError;
use rusqlite::Connection;

/// One GPU agent of a segment.
#[derive(Clone, Debug)]
pub(super) struct Agent {
    /// `rocpd_info_agent.id`, what `rocpd_kernel_dispatch.agent_id` refers to.
    pub id: i64,
    /// The writing process's GUID (rows join on id and GUID, as the schema's views do).
    pub guid: String,
    pub device: Device,
    /// Lanes per wavefront (the vector FLOP count's multiplier); 64 where the row does not say.
    pub wave_size: f64,
}

/// The segment's GPU agents (none when it has no agent table).
pub(super) fn read(file: &str, conn: &Connection, seg: &Segment) -> Result<Vec<Agent>, ImportError> {
    let Some(table) = seg.table("rocpd_info_agent") else { return Ok(Vec::new()) };
    let cols = columns(file, conn, &table)?;
    let c = |name: &str| column_or_null(&cols, "A", name);
    // The JSON is read only where SQLite finds it well formed: `json_extract` of malformed
    // text is an error that would fail the whole query.
    let json = |key: &str| {
        if cols.iter().any(|n| n == "extdata") {
            format!("CASE WHEN json_valid(A.extdata) THEN json_extract(A.extdata, '$.{key}') END")
        } else {
            "NULL".to_string()
        }
    };
    let sql = format!(
        "SELECT {id}, {guid}, {ty}, {abs}, {name}, {product}, {cus}, {clock}, {wave} FROM {table} A ORDER BY {id}",
        id = c("id"),
        guid = c("guid"),
        ty = c("type"),
        abs = c("absolute_index"),
        name = c("name"),
        product = c("product_name"),
        cus = json("cu_count"),
        clock = json("max_engine_clk_fcompute"),
        wave = json("wave_front_size"),
    );
    let rows = query_rows(file, conn, &sql, "the agents (rocpd_info_agent)", |r| {
        Ok((int(r, 0), text(r, 1).unwrap_or_default(), text(r, 2), int(r, 3), text(r, 4), text(r, 5), real(r, 6), real(r, 7), real(r, 8)))
    })?;
    let mut agents = Vec::new();
    for (id, guid, ty, abs, name, product, cus, clock_mhz, wave) in rows {
        let Some(id) = id else { continue };
        if ty.as_deref().map(str::trim) != Some("GPU") {
            continue; // CPU agents
        }
        let product = product.map(|p| p.trim().to_string()).filter(|p| !p.is_empty());
        let index = abs.unwrap_or(id);
        let whole = |v: Option<f64>| v.filter(|v| *v > 0.0 && v.fract() == 0.0 && *v <= f64::from(u32::MAX));
        let device = Device {
            name: Some(product.unwrap_or_else(|| format!("GPU {index}"))),
            vendor: Some(Vendor::Amd),
            arch: name.map(|n| n.trim().to_string()).filter(|n| n.starts_with("gfx")),
            sm_count: whole(cus).map(|v| v as u32),
            max_sm_clock_hz: clock_mhz.filter(|v| *v > 0.0).map(|mhz| mhz * 1e6),
            ..Device::default()
        }
        .normalised();
        agents.push(Agent { id, guid, device, wave_size: whole(wave).unwrap_or(64.0) });
    }
    Ok(agents)
}
