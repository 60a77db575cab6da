//! Synthetic large Nsight Compute raw-page CSVs for the speed budgets (docs/PERFORMANCE.md):
//! the launches of a real `ncu --csv --page raw` file repeated, IDs renumbered, with its
//! preamble, header and units row kept, so the parser sees real column counts, quoting and
//! number formats. Shared by `examples/make_big_ncu.rs` (files for the CLI and the Python
//! baseline) and the criterion benches (in memory).

use std::io::{self, Write};

/// The parts of a raw-page file: everything up to and including the units row, and the data rows.
pub struct RawPage<'a> {
    pub head: Vec<&'a str>,
    pub rows: Vec<&'a str>,
}

/// Splits a raw-page sample into its head (preamble, header, units row) and its launch rows.
pub fn split_raw_page(sample: &str) -> Result<RawPage<'_>, String> {
    let lines: Vec<&str> = sample.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("\"ID\",\"Process ID\""))
        .ok_or("the sample has no Nsight Compute header (\"ID\",\"Process ID\",…)")?;
    let first_row = header + 2; // the units row follows the header
    let rows: Vec<&str> = lines.get(first_row..).unwrap_or(&[]).iter().copied().filter(|l| l.starts_with('"') && !l.starts_with("\"\"")).collect();
    if rows.is_empty() {
        return Err("the sample has no launch rows".into());
    }
    Ok(RawPage { head: lines.get(..first_row).unwrap_or(&[]).to_vec(), rows })
}

/// Writes a raw-page CSV of at least `target_bytes` (whole rows; LF line ends): the sample's
/// head, then its launch rows over and over with IDs 0, 1, 2, … Returns the bytes written.
pub fn write_big_ncu(sample: &str, target_bytes: u64, out: &mut impl Write) -> io::Result<u64> {
    let page = split_raw_page(sample).map_err(io::Error::other)?;
    let mut written: u64 = 0;
    for l in &page.head {
        out.write_all(l.as_bytes())?;
        out.write_all(b"\n")?;
        written += l.len() as u64 + 1;
    }
    let mut id: u64 = 0;
    while written < target_bytes {
        for row in &page.rows {
            // A row starts with its quoted ID: `"12",…`.
            let rest = row.find("\",").map_or(*row, |i| &row[i..]);
            let id_text = format!("\"{id}");
            out.write_all(id_text.as_bytes())?;
            out.write_all(rest.as_bytes())?;
            out.write_all(b"\n")?;
            written += (id_text.len() + rest.len() + 1) as u64;
            id += 1;
            if written >= target_bytes {
                break;
            }
        }
    }
    Ok(written)
}

/// A raw-page CSV of at least `target_bytes`, in memory.
#[allow(dead_code)] // used by the benches, not by the example
pub fn big_ncu(sample: &str, target_bytes: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(target_bytes as usize + 8192);
    // Writing to a Vec cannot fail.
    let _ = write_big_ncu(sample, target_bytes, &mut v);
    v
}
