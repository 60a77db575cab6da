//! Finding a table inside a profiler's output and its columns by name.
//!
//! Profilers print their own chatter (`==PROF==`, `==12345==`, the application's stdout, a
//! `sep=,` line, a banner) before the header; importers locate the header line in the text
//! (a line scanner: detection looks at lines before any CSV is parsed), then read records
//! from there with [`super::records::Reader`].

use super::records::{Reader, Record};
use crate::error::ImportError;
use std::cell::RefCell;

/// How many lines detection looks at before giving up: preambles of real files are up to a
/// few hundred lines (application output); the whole file is never scanned to detect.
pub const DETECT_LINES: usize = 5000;

/// The first line (within [`DETECT_LINES`]) for which `pred` holds: `(line number, byte offset, text)`.
pub fn find_line(text: &str, pred: impl Fn(&str) -> bool) -> Option<(usize, usize, &str)> {
    find_line_dyn(text, &pred)
}

/// [`find_line`]'s body, compiled once: the importers call it with a dozen different
/// predicates, and a copy of the line scanner per predicate was 4 KB of the wasm. Within
/// [`with_lines_split`] for the same text, the lines split there are used, and lines not split
/// yet are split there as this search reaches them.
fn find_line_dyn<'a>(text: &'a str, pred: &dyn Fn(&str) -> bool) -> Option<(usize, usize, &'a str)> {
    let holds = |&(_, _, l): &(usize, usize, &str)| pred(l.trim_start_matches('\u{feff}'));
    let key = (text.as_ptr() as usize, text.len());
    if SPLIT.with(|split| split.borrow().as_ref().is_some_and(|s| s.text == key)) {
        // The split is borrowed for one line at a time, not while `pred` runs.
        let line = |i| SPLIT.with(|split| split.borrow_mut().as_mut().and_then(|s| s.line(text, i)));
        return (0..DETECT_LINES).map_while(|i| Some((i, line(i)?))).find_map(|(i, (start, end))| {
            let found = (i + 1, start, text.get(start..end)?);
            holds(&found).then_some(found)
        });
    }
    lines_with_offsets(text).take(DETECT_LINES).find(holds)
}

/// The lines of one text split so far (at most [`DETECT_LINES`]), and the text's address and
/// length, which only [`with_lines_split`] sets, for as long as it borrows that text (so no
/// other text can be at that address meanwhile). Split as the searches reach them, not at
/// once: a raw page's 5,000 lines are 15 MB, and its header is the third.
struct Split {
    text: (usize, usize),
    /// Each line's byte range, line end excluded.
    ranges: Vec<(usize, usize)>,
    /// Where the first line not split yet starts.
    next: usize,
}

impl Split {
    /// Line `i`'s range (0-based), splitting the lines up to it if they are not yet; `None`
    /// past the text's last line or past [`DETECT_LINES`]. As [`lines_with_offsets`] splits.
    fn line(&mut self, text: &str, i: usize) -> Option<(usize, usize)> {
        while self.ranges.len() <= i && self.ranges.len() < DETECT_LINES && self.next < text.len() {
            // Cut as `lines_with_offsets` cuts: up to and with the next LF, then CRs and LFs
            // trimmed from the end.
            let line = text.get(self.next..)?.split_inclusive('\n').next()?;
            self.ranges.push((self.next, self.next + line.trim_end_matches(['\n', '\r']).len()));
            self.next += line.len();
        }
        self.ranges.get(i).copied()
    }
}

thread_local! {
    static SPLIT: RefCell<Option<Split>> = const { RefCell::new(None) };
}

/// Runs `f` with the first [`DETECT_LINES`] lines of `text` split once, each when a search
/// first reaches it, for every [`find_line`] over `text` that `f` makes. Why: detection asks
/// each importer in turn, and each looked for its header line by splitting the same lines
/// again (a tidy CSV, next to last in the list, was split by all of them:
/// docs/PERFORMANCE.md, 2026-12-02).
pub fn with_lines_split<R>(text: &str, f: impl FnOnce() -> R) -> R {
    /// Puts back what was split before, however `f` ends (a panic included): a split left
    /// behind could be taken for another text's at the same address later.
    struct Restore(Option<Split>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            let _ = SPLIT.try_with(|s| *s.borrow_mut() = before);
        }
    }
    let split = Split { text: (text.as_ptr() as usize, text.len()), ranges: Vec::new(), next: 0 };
    let _restore = Restore(SPLIT.with(|s| s.replace(Some(split))));
    f()
}

/// Splits `text` into its lines with their starting byte offsets (1-based line numbers).
pub fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').enumerate().map(move |(i, l)| {
        let start = offset;
        offset += l.len();
        (i + 1, start, l.trim_end_matches(['\n', '\r']))
    })
}

/// Column positions of a header record, looked up by name.
pub struct Columns {
    names: Vec<String>,
}

impl Columns {
    pub fn new(header: &Record) -> Self {
        Columns { names: header.fields.iter().map(|f| f.trim().trim_start_matches('\u{feff}').to_string()).collect() }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The first column named exactly `name`.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|h| h == name)
    }

    /// The first column whose name is one of `names` (ASCII case-insensitive), in the order given.
    pub fn any(&self, names: &[&str]) -> Option<usize> {
        names.iter().find_map(|n| self.names.iter().position(|h| h.eq_ignore_ascii_case(n)))
    }

    /// Like [`Columns::any`], or an error naming the missing column.
    pub fn need(&self, file: &str, line: usize, names: &[&str]) -> Result<usize, ImportError> {
        self.any(names).ok_or_else(|| {
            ImportError::new(file, Some(line), format!("the header has no \"{}\" column", names.first().copied().unwrap_or("")))
        })
    }
}

/// Opens the table whose header is on `line` at byte `offset`: its columns and the records after it.
pub fn open_table(text: &str, line: usize, offset: usize) -> (Columns, Reader<'_>) {
    let mut reader = Reader::at(text, offset, line);
    let columns = reader.next().map(|h| Columns::new(&h)).unwrap_or(Columns { names: Vec::new() });
    (columns, reader)
}

/// A cell of `rec`, or "" when the row is short (rule rows, truncated last lines).
pub fn cell(rec: &Record, i: usize) -> &str {
    rec.fields.cell(i)
}

/// Whether a record is blank or profiler chatter (`==PROF== …`, `==123== …`) rather than data.
pub fn is_chatter(rec: &Record) -> bool {
    is_chatter_fields(rec.fields.len(), rec.fields.cell(0))
}

/// [`is_chatter`] for a record of `n_fields` fields read with [`Reader::next_fields`], given its first field.
pub fn is_chatter_fields(n_fields: usize, first: &str) -> bool {
    match n_fields {
        0 => true,
        1 => first.trim().is_empty() || first.starts_with("=="),
        _ => first.starts_with("=="),
    }
}

/// Unquoted comparison of a header line with `names`: whether the line's first cells are
/// exactly these names, quoted or not.
pub fn header_starts_with(line: &str, names: &[&str]) -> bool {
    let mut rest = line.trim_start_matches('\u{feff}');
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            match rest.strip_prefix(',') {
                Some(r) => rest = r,
                None => return false,
            }
        }
        let quoted = rest.strip_prefix('"').and_then(|r| r.strip_prefix(n)).and_then(|r| r.strip_prefix('"'));
        rest = match quoted.or_else(|| rest.strip_prefix(n)) {
            Some(r) => r,
            None => return false,
        };
    }
    rest.is_empty() || rest.starts_with(',')
}

/// Whether a header line (quoted or not) has a column named `name`.
///
/// Detection asks this of each of a file's first [`DETECT_LINES`] lines for several formats;
/// a line without `name` anywhere in it (every data line) is turned down by one substring
/// search instead of splitting and trimming its cells: for a 10,000-row tidy CSV, finding its
/// format cost 207 M instructions before (docs/PERFORMANCE.md). Exact: a cell equal to `name`
/// after trimming is a substring of the line.
pub fn header_has(line: &str, name: &str) -> bool {
    memchr::memmem::find(line.as_bytes(), name.as_bytes()).is_some() && line.split(',').any(|c| c.trim().trim_matches('"') == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines split once by `with_lines_split` give every `find_line` over the same text what
    /// splitting it there gives (line numbers, offsets, CRLF and a BOM trimmed as before); a
    /// `find_line` over another text, a part of it included, splits that one; and the split
    /// is gone afterwards, even after a panic inside.
    #[test]
    fn lines_split_once_find_what_splitting_finds() {
        let text = "\u{feff}==PROF== chatter\r\nrow one\r\n\"ID\",\"x\"\r\nlast line without end";
        let preds: [&dyn Fn(&str) -> bool; 4] = [&|l| l.starts_with("\"ID\""), &|l| l.starts_with("==PROF=="), &|l| l.ends_with("end"), &|l| l == "absent"];
        let plain: Vec<_> = preds.iter().map(|p| find_line(text, p)).collect();
        assert_eq!(plain[0], Some((3, 30, "\"ID\",\"x\"")));
        assert_eq!(plain[1], Some((1, 0, "\u{feff}==PROF== chatter")));
        let split_lines = || SPLIT.with(|s| s.borrow().as_ref().map(|s| s.ranges.len()));
        let (split, part, lines) = with_lines_split(text, || {
            let first = find_line(text, preds[1]);
            let lines = vec![split_lines(), { find_line(text, preds[0]); split_lines() }];
            let split: Vec<_> = preds.iter().map(|p| find_line(text, p)).collect();
            let part = find_line(&text[30..], |l| l.starts_with("\"ID\""));
            assert_eq!(first, plain[1]);
            (split, part, [lines, vec![split_lines()]].concat())
        });
        assert_eq!(split, plain);
        assert_eq!(lines, [Some(1), Some(3), Some(4)], "lines split as the searches reach them, not at once");
        // Line ends as `lines_with_offsets` cuts them: empty lines, CRs before an LF, a text
        // ending in a line end or not, no text.
        for other in ["\n\n", "a\r\r\n\nb\n", "x", "", "\r\n\"ID\"\r"] {
            let any = |l: &str| l.is_empty() || l.starts_with("\"ID\"") || l == "b";
            let every: Vec<_> = lines_with_offsets(other).collect();
            // The `i`-th line the search is shown, whatever its text: `None` past the last.
            let nth = |i: usize| {
                let seen = std::cell::Cell::new(0);
                find_line(other, |_| { seen.set(seen.get() + 1); seen.get() == i + 1 })
            };
            let walked: Vec<_> = with_lines_split(other, || (0..=every.len()).map(nth).collect());
            assert_eq!(walked, every.iter().map(|&e| Some(e)).chain([None]).collect::<Vec<_>>(), "{other:?}");
            assert_eq!(with_lines_split(other, || find_line(other, any)), find_line(other, any), "{other:?}");
        }
        assert_eq!(part, Some((1, 0, "\"ID\",\"x\"")), "another text (a part of it) is split by itself");
        assert!(SPLIT.with(|s| s.borrow().is_none()));
        let caught = std::panic::catch_unwind(|| with_lines_split(text, || panic!("inside")));
        assert!(caught.is_err());
        assert!(SPLIT.with(|s| s.borrow().is_none()), "a panic inside leaves no split behind");
    }

    #[test]
    fn header_prefix_quoted_or_not() {
        assert!(header_starts_with("\"ID\",\"Process ID\",\"x\"", &["ID", "Process ID"]));
        assert!(header_starts_with("Index,KernelName,gpu-id", &["Index", "KernelName"]));
        assert!(!header_starts_with("Index2,KernelName", &["Index", "KernelName"]));
        assert!(header_has("a,\"b\",c", "b"));
        assert!(header_has(" KernelName , x", "KernelName") && header_has("\u{feff}x,\"Index\"", "Index"));
        assert!(!header_has("Index2,KernelNames", "KernelName") && !header_has("kernel_1,1e-05", "Index") && !header_has("", "a"));
    }
}
