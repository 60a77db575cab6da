//! What the engine accepts: how large a file may be, which times a chart can use, and
//! when a file looks cut short.
//!
//! **File size.** A file is checked against a limit *before* it is read, where its size is
//! known (`std::fs::Metadata::len` in the CLI, `File.size` in the app), so that a 40 GB file
//! dropped by mistake fails at once with a message instead of filling memory:
//! [`check_size`] (the CLI's limit) and [`check_size_within`] (any limit, e.g. the app's).
//!
//! * [`MAX_FILE_BYTES`] = 2 GiB, the CLI's limit: it streams large files in chunks
//!   ([`crate::dataset::DatasetBuilder`]), so memory stays small, and 2 GiB is far above any
//!   profile we have seen (a 1 GB Nsight Compute raw page holds ~350 000 launches) while
//!   still stopping a disk image or a core dump.
//! * [`MAX_IN_MEMORY_FILE_BYTES`] = 512 MiB, for what is held whole in memory: a file of a
//!   format that does not stream (all but the Nsight Compute pages) is kept until its end
//!   and then decoded and parsed next to its bytes ([`check_held`], called by the
//!   `DatasetBuilder` as chunks arrive), or a caller that reads files whole. In the app that
//!   memory is wasm's 32-bit address space (4 GiB at most), and running out aborts the page.
//!
//! Sizes in messages are decimal megabytes (the units decision, `units.rs`): the size is
//! rounded up and the limit down, so a refused file never shows the limit's own number.
//!
//! **Unusable times.** A kernel whose time is zero, negative, NaN or infinite (a broken
//! profile, rocprof timestamps rounded by a spreadsheet, a hand-made tidy CSV) cannot be
//! placed on a roofline (performance = work / time). [`drop_unusable_times`] removes its
//! time counters, so that it stays in the kernel table without a time, has no dot, and does
//! not corrupt total times; one warning names the kernels.
//!
//! **Cut files.** A file that ends in the middle of a row ([`truncated_row`]) still loads
//! (the rows before the cut are good data), with a warning naming the line.

use crate::domain::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::domain::profile::KernelProfile;

/// Largest file the command-line tool reads (it streams): 2 GiB.
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// Largest file a caller holding the whole file in memory should accept (the web app): 512 MiB.
pub const MAX_IN_MEMORY_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Checks a file's size against [`MAX_FILE_BYTES`] before it is read.
pub fn check_size(name: &str, len_bytes: u64) -> Result<(), ImportError> {
    check_size_within(name, len_bytes, MAX_FILE_BYTES)
}

/// Checks a file's size against `limit_bytes` before it is read: "too large: N MB, limit M MB".
pub fn check_size_within(name: &str, len_bytes: u64, limit_bytes: u64) -> Result<(), ImportError> {
    if len_bytes <= limit_bytes {
        return Ok(());
    }
    let size_mb = len_bytes.div_ceil(1_000_000);
    let limit_mb = limit_bytes / 1_000_000;
    Err(ImportError::new(name, None, format!("the file is too large: {size_mb} MB, limit {limit_mb} MB")).with_hint(
        "profile fewer kernels (ncu --kernel-name REGEX or --launch-count N; rocprof --kernel-include-regex) or fewer metrics, then load that file",
    ))
}

/// Checks that a file read whole (every format but the Nsight Compute pages, which stream)
/// stays within [`MAX_IN_MEMORY_FILE_BYTES`] as its chunks arrive: `held_bytes` so far.
/// In the app, a file held past that would exhaust wasm memory, which aborts the page.
pub fn check_held(name: &str, held_bytes: usize) -> Result<(), ImportError> {
    let held = u64::try_from(held_bytes).unwrap_or(u64::MAX);
    if held <= MAX_IN_MEMORY_FILE_BYTES {
        return Ok(());
    }
    let limit_mb = MAX_IN_MEMORY_FILE_BYTES / 1_000_000;
    Err(ImportError::new(
        name,
        None,
        format!("the file is too large for its format: more than {limit_mb} MB would be held in memory (only Nsight Compute pages are read as a stream)"),
    )
    .with_hint("split the file, or profile fewer kernels or metrics"))
}

/// The counters a kernel's time comes from ([`KernelProfile::time_s`]).
const TIME_COUNTERS: [Counter; 3] = [Counter::TimeS, Counter::Cycles, Counter::ClockHz];

/// Removes the time of every kernel whose time is not a positive finite number (module doc)
/// and returns the warning naming them (`files`: the dataset's file names, for the message),
/// or `None` when every time is usable.
pub fn drop_unusable_times(files: &str, kernels: &mut [KernelProfile]) -> Option<ImportError> {
    let mut dropped: Vec<String> = Vec::new();
    for k in kernels.iter_mut() {
        let Some(t) = k.time_s() else { continue };
        if t.is_finite() && t > 0.0 {
            continue;
        }
        let mut kept = Counters::default();
        for (c, v) in k.counters.iter().filter(|(c, _)| !TIME_COUNTERS.contains(c)) {
            kept.set(c, v);
        }
        k.counters = kept;
        dropped.push(format!("{} ({})", k.display_name(), describe(t)));
    }
    let n = dropped.len();
    if n == 0 {
        return None;
    }
    const SHOWN: usize = 5;
    let mut list = dropped.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if n > SHOWN {
        list.push_str(&format!(" and {} more", n - SHOWN));
    }
    let (count, verb) = if n == 1 { ("1 kernel".to_string(), "has") } else { (format!("{n} kernels"), "have") };
    Some(ImportError::new(
        files,
        None,
        format!("{count} {verb} no usable time (zero, negative, NaN or infinite): {list}; listed without time and left out of the charts"),
    ))
}

/// The warning for a file that ends in the middle of a row (a copy or a profiler run cut
/// short): the text does not end with a line end, and its last line has an unterminated
/// quote or fewer comma-separated cells (at least two) than the line before it. The rows
/// before it are read as they are; the importer reads or skips the cut row.
pub fn truncated_row(file: &str, text: &str) -> Option<ImportError> {
    if text.ends_with(['\n', '\r']) {
        return None;
    }
    let last_start = text.rfind('\n')? + 1;
    let last = text.get(last_start..)?;
    let before = text.get(..last_start)?.trim_end_matches(['\n', '\r']);
    let prev = before.get(before.rfind('\n').map_or(0, |i| i + 1)..)?;
    let ((cells, open), (prev_cells, _)) = (csv_shape(last), csv_shape(prev));
    if !(open || (cells >= 2 && cells < prev_cells)) {
        return None;
    }
    let line = 1 + memchr::memchr_iter(b'\n', text.as_bytes()).count();
    Some(ImportError::new(file, Some(line), "the file ends in the middle of a row (was it cut short?); the rows before it were read"))
}

/// Cells of a CSV line (commas outside quotes + 1) and whether it ends inside a quote.
fn csv_shape(line: &str) -> (usize, bool) {
    let (mut cells, mut quoted) = (1, false);
    for b in line.bytes() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => cells += 1,
            _ => {}
        }
    }
    (cells, quoted)
}

/// A bad time as the warning prints it.
fn describe(t: f64) -> String {
    if t.is_nan() {
        "NaN".into()
    } else if t.is_infinite() {
        "infinite".into()
    } else {
        format!("{t} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked_against_the_limit() {
        assert_eq!(check_size("a.csv", MAX_FILE_BYTES), Ok(()));
        let e = check_size("a.csv", MAX_FILE_BYTES + 1).unwrap_err();
        assert_eq!(e.to_string().split(" (").next(), Some("a.csv: the file is too large: 2148 MB, limit 2147 MB"));
        let e = check_size_within("b.csv", 600_000_000, MAX_IN_MEMORY_FILE_BYTES).unwrap_err();
        assert_eq!(e.message, "the file is too large: 600 MB, limit 536 MB");
    }

    #[test]
    fn files_held_whole_have_a_limit() {
        assert_eq!(check_held("a.csv", MAX_IN_MEMORY_FILE_BYTES as usize), Ok(()));
        let e = check_held("a.csv", MAX_IN_MEMORY_FILE_BYTES as usize + 1).unwrap_err();
        assert_eq!(e.message, "the file is too large for its format: more than 536 MB would be held in memory (only Nsight Compute pages are read as a stream)");
    }

    #[test]
    fn good_times_are_kept() {
        let mut c = Counters::default();
        c.set(Counter::TimeS, 1e-3);
        let mut ks = vec![KernelProfile { name: "k".into(), launches: 1, counters: c.clone() }];
        assert_eq!(drop_unusable_times("a.csv", &mut ks), None);
        assert_eq!(ks[0].counters, c);
    }
}
