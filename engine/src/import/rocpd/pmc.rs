//! Counter values (`rocpd_pmc_event`, named by `rocpd_info_pmc`) → each dispatch's raw AMD
//! counters ([`AmdAccum`], the rocprof CSV readers' own vocabulary and arithmetic).
//!
//! rocprofv3 writes one `rocpd_pmc_event` row per counter record of a dispatch
//! (`generateRocpd.cpp`, `insert_pmc_event_data`: `event_id` the dispatch's event, `pmc_id` the
//! counter's `rocpd_info_pmc` row), so a counter read per instance (per XCC, per channel) has
//! several rows. The schema's `counters_collection` view sums them (`SUM(value)` grouped by
//! dispatch and counter name); so does this reader, which joins as that view does (`pmc_id` →
//! `rocpd_info_pmc.id`, `event_id` → `rocpd_kernel_dispatch.event_id`, on equal GUIDs) and
//! adds each row to its dispatch's sums as SQLite steps to it ([`AmdAccum::put_named`] adds):
//! no `GROUP BY`, whose sort held every row in memory (a 500 MB database's 7.2 M rows), and a
//! dispatch's rows kept as (name, value) pairs until its launch is made ([`DispatchCounters`]),
//! not as an `AmdAccum` of every counter slot (1.2 KB each; docs/PERFORMANCE.md, "rocpd
//! databases in the browser"). The counts are whole numbers, so the sums are exact in any order.

use super::open::{columns, for_each_row, int, real, text, Segment};
use crate::error::ImportError;
use crate::import::rocprof::AmdAccum;
use rusqlite::Connection;
use std::collections::HashMap;

/// Each dispatch's counter rows, by (GUID, dispatch row id), until [`DispatchCounters::take`]:
/// the counter names once, each row a name's number and its value.
#[derive(Default)]
pub(super) struct DispatchCounters {
    names: Vec<String>,
    index: HashMap<String, u32>,
    by_dispatch: HashMap<(String, i64), Vec<(u32, f64)>>,
}

impl DispatchCounters {
    /// Adds one counter row of a dispatch.
    fn add(&mut self, guid: String, row: i64, name: &str, value: f64) {
        let n = match self.index.get(name) {
            Some(&n) => n,
            None => {
                let n = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
                self.names.push(name.to_string());
                self.index.insert(name.to_string(), n);
                n
            }
        };
        self.by_dispatch.entry((guid, row)).or_default().push((n, value));
    }

    /// The counters of dispatch `row` of `guid`, summed ([`AmdAccum::put_named`]), taken out.
    pub(super) fn take(&mut self, guid: &str, row: i64) -> Option<AmdAccum> {
        let rows = self.by_dispatch.remove(&(guid.to_string(), row))?;
        let mut acc = AmdAccum::default();
        for (n, value) in rows {
            if let Some(name) = usize::try_from(n).ok().and_then(|n| self.names.get(n)) {
                acc.put_named(name, value);
            }
        }
        Some(acc)
    }
}

/// Each dispatch's counter rows. Empty for a kernel trace (no PMC tables).
pub(super) fn read(file: &str, conn: &Connection, seg: &Segment) -> Result<DispatchCounters, ImportError> {
    let (Some(events), Some(info), Some(dispatches)) = (seg.table("rocpd_pmc_event"), seg.table("rocpd_info_pmc"), seg.table("rocpd_kernel_dispatch")) else {
        return Ok(DispatchCounters::default());
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
        "SELECT K.id, {guid}, I.name, E.value FROM {events} E \
         JOIN {info} I ON I.id = E.pmc_id{ij} \
         JOIN {dispatches} K ON K.event_id = E.event_id{kj}",
        ij = guid_join("I", &ic, "E", &ec),
        kj = guid_join("K", &kc, "E", &ec),
    );
    let mut counters = DispatchCounters::default();
    for_each_row(file, conn, &sql, "the counter values (rocpd_pmc_event)", |r| {
        let (Some(row), Some(name), Some(value)) = (int(r, 0), text(r, 2), real(r, 3)) else { return };
        counters.add(text(r, 1).unwrap_or_default(), row, name.trim(), value);
    })?;
    Ok(counters)
}
