//! Counter values (`rocpd_pmc_event`, named by `rocpd_info_pmc`) → each dispatch's raw AMD
//! counters ([`AmdAccum`], the rocprof CSV readers' own vocabulary and arithmetic).
//!
//! rocprofv3 writes one `rocpd_pmc_event` row per counter record of a dispatch
//! (`generateRocpd.cpp`, `insert_pmc_event_data`: `event_id` the dispatch's event, `pmc_id` the
//! counter's `rocpd_info_pmc` row), so a counter read per instance (per XCC, per channel) has
//! several rows. The schema's `counters_collection` view sums them (`SUM(value)` grouped by
//! dispatch and counter name); so does this query, which joins as that view does (`pmc_id` →
//! `rocpd_info_pmc.id`, `event_id` → `rocpd_kernel_dispatch.event_id`, on equal GUIDs).

use super::open::{columns, for_each_row, int, real, text, Segment};
use crate::error::ImportError;
use crate::import::rocprof::AmdAccum;
use rusqlite::Connection;
use std::collections::HashMap;

/// Each dispatch's counters, by (GUID, dispatch row id). Empty for a kernel trace (no PMC tables).
pub(super) fn read(file: &str, conn: &Connection, seg: &Segment) -> Result<HashMap<(String, i64), AmdAccum>, ImportError> {
    let (Some(events), Some(info), Some(dispatches)) = (seg.table("rocpd_pmc_event"), seg.table("rocpd_info_pmc"), seg.table("rocpd_kernel_dispatch")) else {
        return Ok(HashMap::new());
    };
    let (ec, ic, kc) = (columns(file, conn, &events)?, columns(file, conn, &info)?, columns(file, conn, &dispatches)?);
    let has = |cols: &[String], c: &str| cols.iter().any(|n| n == c);
    if !(has(&ec, "event_id") && has(&ec, "pmc_id") && has(&ec, "value") && has(&ic, "id") && has(&ic, "name") && has(&kc, "event_id")) {
        return Err(ImportError::new(file, None, "the rocprofv3 database's counter tables lack the columns of schema 3 (rocpd_pmc_event: event_id, pmc_id, value; rocpd_info_pmc: id, name)"));
    }
    let guid_join = |a: &str, a_cols: &[String], b: &str, b_cols: &[String]| {
        if has(a_cols, "guid") && has(b_cols, "guid") {
            format!(" AND {a}.guid = {b}.guid")
        } else {
            String::new()
        }
    };
    let guid = if has(&kc, "guid") { "K.guid" } else { "NULL" };
    let sql = format!(
        "SELECT K.id, {guid}, I.name, SUM(E.value) FROM {events} E \
         JOIN {info} I ON I.id = E.pmc_id{ij} \
         JOIN {dispatches} K ON K.event_id = E.event_id{kj} \
         GROUP BY K.id, {guid}, I.name",
        ij = guid_join("I", &ic, "E", &ec),
        kj = guid_join("K", &kc, "E", &ec),
    );
    let mut by_dispatch: HashMap<(String, i64), AmdAccum> = HashMap::new();
    for_each_row(file, conn, &sql, "the counter values (rocpd_pmc_event)", |r| {
        let (Some(row), Some(name), Some(value)) = (int(r, 0), text(r, 2), real(r, 3)) else { return };
        by_dispatch.entry((text(r, 1).unwrap_or_default(), row)).or_default().put_named(name.trim(), value);
    })?;
    Ok(by_dispatch)
}
