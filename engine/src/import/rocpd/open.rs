//! Opening a database and finding its tables.
//!
//! rocprofv3 names every table with the writing process's UUID (`rocpd_info_agent_0197…_7c3e`:
//! the schema's `{{uuid}}` template replaced by `_` and the UUID with `-` turned into `_`,
//! `generateRocpd.cpp`) and adds views without the suffix (`rocpd_info_agent`, `SELECT *` of
//! the table). Only **tables** are read here, never the file's views:
//!
//! * a view is SQL the file brings along, which a hostile file could make run forever; a
//!   table read costs what its rows cost;
//! * the views name one UUID's tables only, where a merged database holds several processes'
//!   (one set of tables per UUID): each set is read, a [`Segment`] each;
//! * the data views (`kernels`, `counters_collection`) join optional links (thread, region
//!   string, event) with `INNER JOIN`, which drops a dispatch whose link is missing.
//!
//! Tables named without a suffix (what rocprofv3 writes when it has no UUID) are one segment too.

use crate::error::ImportError;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, Row};
use std::collections::BTreeMap;

/// The tables one process wrote: a UUID suffix (`_0197…`, or empty).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Segment {
    pub suffix: String,
    /// The `rocpd_*` base names of the tables this segment has (`rocpd_info_agent`).
    pub tables: Vec<String>,
}

impl Segment {
    /// The quoted table name of `base` (`"rocpd_info_agent_0197…"`), if the segment has it.
    pub fn table(&self, base: &str) -> Option<String> {
        self.tables.iter().any(|t| t == base).then(|| format!("\"{base}{}\"", self.suffix))
    }
}

/// The rocpd tables [`segments`] looks for (`rocpd_tables.sql`).
const BASES: [&str; 8] = [
    "rocpd_metadata",
    "rocpd_info_process",
    "rocpd_info_agent",
    "rocpd_info_kernel_symbol",
    "rocpd_info_pmc",
    "rocpd_kernel_dispatch",
    "rocpd_pmc_event",
    "rocpd_event",
];

/// A UUID suffix as rocprofv3 writes it: `_` then hex digits and `_`.
fn is_uuid_suffix(rest: &str) -> bool {
    rest.len() > 1 && rest.starts_with('_') && rest.bytes().skip(1).all(|b| b.is_ascii_hexdigit() || b == b'_')
}

/// The `rocpd_*` base name and suffix of a table name, if it is one of [`BASES`].
fn split_name(name: &str) -> Option<(&'static str, &str)> {
    // Longest base first: `rocpd_info_pmc` must not take `rocpd_info_pmc…` of another base
    // (none today, but the order makes it safe).
    let mut bases = BASES;
    bases.sort_by_key(|b| std::cmp::Reverse(b.len()));
    bases.into_iter().find_map(|base| {
        let rest = name.strip_prefix(base)?;
        (rest.is_empty() || is_uuid_suffix(rest)).then_some((base, rest))
    })
}

/// The database's segments (one per UUID), those with a kernel dispatch table, in the order
/// of their suffix.
pub(super) fn segments(file: &str, conn: &Connection) -> Result<Vec<Segment>, ImportError> {
    let names: Vec<String> = query_rows(file, conn, "SELECT name FROM sqlite_master WHERE type = 'table'", "the list of tables", |r| {
        Ok(text(r, 0).unwrap_or_default())
    })?;
    let mut by_suffix: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut any_rocpd = false;
    for name in &names {
        any_rocpd |= name.starts_with("rocpd_");
        if let Some((base, suffix)) = split_name(name) {
            by_suffix.entry(suffix.to_string()).or_default().push(base.to_string());
        }
    }
    let segments: Vec<Segment> = by_suffix
        .into_iter()
        .map(|(suffix, tables)| Segment { suffix, tables })
        .filter(|s| s.table("rocpd_kernel_dispatch").is_some())
        .collect();
    if segments.is_empty() {
        let message = if any_rocpd {
            "a rocprofv3 database without kernel dispatches (no rocpd_kernel_dispatch table): collect with `rocprofv3 --kernel-trace` or `--pmc …`"
        } else {
            "an SQLite database, but not one rocprofv3 wrote (no rocpd_* tables; expected rocpd_kernel_dispatch, rocpd_info_agent, …)"
        };
        let e = ImportError::new(file, None, message);
        // nvprof's `.nvvp` is the other SQLite profile users have (`CUPTI_ACTIVITY_KIND_*`).
        return Err(if any_rocpd { e } else { e.with_hint("an nvprof profile (.nvvp)? export it as CSV: `nvprof --import-profile profile.nvvp --csv --print-gpu-trace 2> trace.csv`") });
    }
    Ok(segments)
}

/// The columns `table` (quoted) has, to read the optional ones only where present.
pub(super) fn columns(file: &str, conn: &Connection, table: &str) -> Result<Vec<String>, ImportError> {
    query_rows(file, conn, &format!("PRAGMA table_info({table})"), "a table's columns", |r| Ok(text(r, 1).unwrap_or_default()))
}

/// `T."column"` if `cols` has `column`, else `NULL`: a select list that reads what is there.
pub(super) fn column_or_null(cols: &[String], alias: &str, column: &str) -> String {
    if cols.iter().any(|c| c == column) {
        format!("{alias}.\"{column}\"")
    } else {
        "NULL".to_string()
    }
}

/// The segment's `schema_version` (`rocpd_metadata`), if it says.
pub(super) fn schema_version(file: &str, conn: &Connection, seg: &Segment) -> Result<Option<String>, ImportError> {
    let Some(table) = seg.table("rocpd_metadata") else { return Ok(None) };
    let cols = columns(file, conn, &table)?;
    if !cols.iter().any(|c| c == "tag") || !cols.iter().any(|c| c == "value") {
        return Ok(None);
    }
    let sql = format!("SELECT value FROM {table} WHERE tag = 'schema_version' LIMIT 1");
    Ok(query_rows(file, conn, &sql, "the schema version", |r| Ok(text(r, 0)))?.into_iter().flatten().next())
}

/// Runs `sql` and maps every row; an SQLite error (a corrupt or truncated file) becomes an
/// error naming the file and `what` was being read.
pub(super) fn query_rows<T>(file: &str, conn: &Connection, sql: &str, what: &str, mut f: impl FnMut(&Row<'_>) -> rusqlite::Result<T>) -> Result<Vec<T>, ImportError> {
    let fail = |e: rusqlite::Error| sqlite_error(file, what, &e);
    let mut stmt = conn.prepare(sql).map_err(fail)?;
    let rows = stmt.query_map([], |r| f(r)).map_err(fail)?;
    rows.collect::<rusqlite::Result<Vec<T>>>().map_err(fail)
}

/// Calls `f` on each row of `sql`'s result as SQLite steps to it, keeping none: for the
/// counter rows, one per dispatch and counter (6.7 M of a 500 MB database), which collected
/// first took ≈ 1 GB more (docs/PERFORMANCE.md, "rocpd databases in the browser").
pub(super) fn for_each_row(file: &str, conn: &Connection, sql: &str, what: &str, mut f: impl FnMut(&Row<'_>)) -> Result<(), ImportError> {
    let fail = |e: rusqlite::Error| sqlite_error(file, what, &e);
    let mut stmt = conn.prepare(sql).map_err(fail)?;
    let mut rows = stmt.query([]).map_err(fail)?;
    while let Some(r) = rows.next().map_err(fail)? {
        f(r);
    }
    Ok(())
}

/// An SQLite error while reading `what`.
pub(super) fn sqlite_error(file: &str, what: &str, e: &rusqlite::Error) -> ImportError {
    ImportError::new(file, None, format!("cannot read {what} from the rocprofv3 database (SQLite: {e}); the file may be cut short or damaged"))
}

/// A cell as an integer: an INTEGER, a whole REAL, or text of digits (SQLite stores what it is given).
pub(super) fn int(r: &Row<'_>, i: usize) -> Option<i64> {
    match r.get_ref(i).ok()? {
        ValueRef::Integer(v) => Some(v),
        ValueRef::Real(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => Some(v as i64),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// A cell as a finite number.
pub(super) fn real(r: &Row<'_>, i: usize) -> Option<f64> {
    let v = match r.get_ref(i).ok()? {
        ValueRef::Integer(v) => v as f64,
        ValueRef::Real(v) => v,
        ValueRef::Text(t) => crate::import::parse_number(std::str::from_utf8(t).ok()?)?,
        _ => return None,
    };
    v.is_finite().then_some(v)
}

/// A cell as text (numbers written out), `None` for NULL, blobs and invalid UTF-8.
pub(super) fn text(r: &Row<'_>, i: usize) -> Option<String> {
    match r.get_ref(i).ok()? {
        ValueRef::Text(t) => std::str::from_utf8(t).ok().map(str::to_string),
        ValueRef::Integer(v) => Some(v.to_string()),
        ValueRef::Real(v) => Some(v.to_string()),
        _ => None,
    }
}

/// A database held in memory, opened read-only: SQLite reads the bytes as its file
/// (`sqlite3_deserialize`, one copy into SQLite's own allocation).
pub(super) fn open_bytes(file: &str, bytes: &[u8]) -> Result<Connection, ImportError> {
    let fail = |e: rusqlite::Error| sqlite_error(file, "the database", &e);
    if bytes.len() < 100 {
        // Smaller than SQLite's 100-byte file header: no database page at all.
        return Err(ImportError::new(file, None, format!("a rocprofv3 database (SQLite) cut short: {} bytes, less than its 100-byte header", bytes.len())));
    }
    if let Some(want) = stated_size(bytes).filter(|&n| n > bytes.len() as u64) {
        return Err(ImportError::new(file, None, format!("a rocprofv3 database (SQLite) cut short: {} bytes of the {want} its header states", bytes.len())));
    }
    let mut conn = Connection::open_with_flags(":memory:", OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX).map_err(fail)?;
    // A database last written in WAL mode says so in header bytes 18 and 19 (2, 2); an
    // in-memory database cannot open a WAL file, and there is none: read it as a rollback
    // journal database (1, 1), which it is once its WAL was checkpointed into the file.
    let mut header = [0u8; 100];
    header.copy_from_slice(bytes.get(..100).unwrap_or(&[0; 100]));
    if header[18] == 2 && header[19] == 2 {
        (header[18], header[19]) = (1, 1);
    }
    let body = bytes.get(100..).unwrap_or(&[]);
    let reader = std::io::Read::chain(&header[..], body);
    conn.deserialize_read_exact(rusqlite::MAIN_DB, reader, bytes.len(), true).map_err(fail)?;
    Ok(conn)
}

/// The file size an SQLite header states (page size × pages, "The Database Header",
/// sqlite.org fileformat2), where the header is current (its "version-valid-for" number equals
/// the change counter: older writers left the page count stale).
fn stated_size(bytes: &[u8]) -> Option<u64> {
    let be32 = |at: usize| bytes.get(at..at + 4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_be_bytes);
    let page = match bytes.get(16..18)? {
        [0, 1] => 65_536,
        [hi, lo] => u64::from(u16::from_be_bytes([*hi, *lo])),
        _ => return None,
    };
    let (pages, changes, valid_for) = (be32(28)?, be32(24)?, be32(92)?);
    (pages > 0 && changes == valid_for).then(|| page * u64::from(pages))
}

/// A database file opened read-only where it lies (the CLI: no copy of the file).
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn open_path(file: &str, path: &std::path::Path) -> Result<Connection, ImportError> {
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX).map_err(|e| sqlite_error(file, "the database", &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_split_into_base_and_uuid() {
        assert_eq!(split_name("rocpd_info_agent"), Some(("rocpd_info_agent", "")));
        assert_eq!(split_name("rocpd_info_agent_0197a1b2_c3d4_7e5f_8a9b_0c1d2e3f4a5b"), Some(("rocpd_info_agent", "_0197a1b2_c3d4_7e5f_8a9b_0c1d2e3f4a5b")));
        assert_eq!(split_name("rocpd_info_pmc_ab12"), Some(("rocpd_info_pmc", "_ab12")));
        assert_eq!(split_name("rocpd_pmc_event_ab12"), Some(("rocpd_pmc_event", "_ab12")));
        assert_eq!(split_name("rocpd_info_agent_x"), None);
        assert_eq!(split_name("rocpd_info_agents"), None);
        assert_eq!(split_name("rocpd_string_ab"), None);
    }
}
