//! Kernel dispatches (`rocpd_kernel_dispatch`, kernel names from `rocpd_info_kernel_symbol`).
//!
//! One row per dispatch, written by both `--kernel-trace` and `--pmc` runs
//! (`generateRocpd.cpp`, `process_dispatch`): `start` and `end` in nanoseconds of the
//! profiler's clock, the grid and workgroup sizes in work-items, `agent_id` the GPU agent, and
//! `kernel_id` the kernel symbol, whose `display_name` is the name the schema's `kernels` view
//! shows (`kernel_name` is the mangled symbol, read where there is no display name).

use super::open::{column_or_null, columns, int, query_rows, text, Segment};
use crate::error::ImportError;
use rusqlite::Connection;

/// One dispatch as the database holds it (the launch keeps its time, kernel and device; the
/// sizes are here for callers that want them).
#[derive(Clone, Debug, PartialEq)]
pub struct Dispatch {
    /// `rocpd_kernel_dispatch.id`: what PMC events join on (through `event_id`).
    pub row: i64,
    pub guid: String,
    /// rocprofv3's dispatch id (the CSV files' `Dispatch_Id`).
    pub dispatch_id: Option<u64>,
    pub agent_id: Option<i64>,
    pub kernel: String,
    pub start_ns: Option<i64>,
    pub end_ns: Option<i64>,
    /// Work-items per dimension (x, y, z) of the whole grid and of one workgroup.
    pub grid: [Option<i64>; 3],
    pub workgroup: [Option<i64>; 3],
}

impl Dispatch {
    /// End − start, ns, as integers (rocprofv3's timestamps, ~1.7e18 ns since the epoch, are
    /// past what an `f64` holds exactly); `None` when either is missing or end < start.
    pub fn duration_ns(&self) -> Option<i64> {
        self.end_ns?.checked_sub(self.start_ns?).filter(|d| *d >= 0)
    }
}

/// The segment's dispatches, in the order they started.
pub(super) fn read(file: &str, conn: &Connection, seg: &Segment) -> Result<Vec<Dispatch>, ImportError> {
    let Some(table) = seg.table("rocpd_kernel_dispatch") else { return Ok(Vec::new()) };
    let cols = columns(file, conn, &table)?;
    for need in ["id", "start", "end"] {
        if !cols.iter().any(|c| c == need) {
            return Err(ImportError::new(file, None, format!("the rocprofv3 database's kernel dispatch table has no {need:?} column (expected rocprofv3's schema 3)")));
        }
    }
    let k = |name: &str| column_or_null(&cols, "K", name);
    // The kernel's name: the symbol's display name (the `kernels` view's `name`), else its
    // mangled name, joined on id and GUID as the views join.
    let symbols = seg.table("rocpd_info_kernel_symbol").map(|t| (columns(file, conn, &t), t));
    let (names, join) = match symbols {
        Some((sym_cols, t)) if cols.iter().any(|c| c == "kernel_id") => {
            let sym_cols = sym_cols?;
            let s = |name: &str| column_or_null(&sym_cols, "S", name);
            let guid = if cols.iter().any(|c| c == "guid") && sym_cols.iter().any(|c| c == "guid") { " AND S.guid = K.guid" } else { "" };
            (format!("{}, {}", s("display_name"), s("kernel_name")), format!(" LEFT JOIN {t} S ON S.id = K.kernel_id{guid}"))
        }
        _ => ("NULL, NULL".to_string(), String::new()),
    };
    let sql = format!(
        "SELECT K.id, {guid}, {dispatch}, {agent}, K.start, K.\"end\", {gx}, {gy}, {gz}, {wx}, {wy}, {wz}, {kernel_id}, {names} FROM {table} K{join} ORDER BY K.start, K.id",
        guid = k("guid"),
        dispatch = k("dispatch_id"),
        agent = k("agent_id"),
        gx = k("grid_size_x"),
        gy = k("grid_size_y"),
        gz = k("grid_size_z"),
        wx = k("workgroup_size_x"),
        wy = k("workgroup_size_y"),
        wz = k("workgroup_size_z"),
        kernel_id = k("kernel_id"),
    );
    let rows = query_rows(file, conn, &sql, "the kernel dispatches (rocpd_kernel_dispatch)", |r| {
        let kernel = [text(r, 13), text(r, 14)].into_iter().flatten().map(|n| n.trim().to_string()).find(|n| !n.is_empty());
        let kernel = kernel.or_else(|| int(r, 12).map(|id| format!("kernel {id}"))).unwrap_or_else(|| "unknown kernel".to_string());
        Ok(int(r, 0).map(|row| Dispatch {
            row,
            guid: text(r, 1).unwrap_or_default(),
            dispatch_id: int(r, 2).and_then(|d| u64::try_from(d).ok()),
            agent_id: int(r, 3),
            kernel: crate::domain::names::clean(&kernel),
            start_ns: int(r, 4),
            end_ns: int(r, 5),
            grid: [int(r, 6), int(r, 7), int(r, 8)],
            workgroup: [int(r, 9), int(r, 10), int(r, 11)],
        }))
    })?;
    Ok(rows.into_iter().flatten().collect())
}
