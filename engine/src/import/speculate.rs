//! Reading later chunks of a streamed file elsewhere (on another thread of the host), on the
//! guess that each starts at a record boundary, and taking the result only where the guess
//! was right.
//!
//! Why: tokenizing is most of the cost of a large Nsight Compute raw page (csv-core ≈ 70 % of
//! `roofline analyze`'s CPU time, docs/PERFORMANCE.md), and a record's end can only be known
//! by tokenizing everything before it (kernel names may hold newlines inside quotes). A
//! chunk that starts at a line start is *probably* at a record start, so it can be read
//! before the chunk ahead of it has been: a [`ChunkParser`] (a copy of the file's row
//! reader, made once its header and units row are read) reads it into a [`ParsedChunk`]:
//! launches with their metrics finished, in order, nothing handed over yet.
//!
//! The guess is checked when the chunk's turn comes, in file order
//! ([`crate::dataset::DatasetBuilder::push_parsed`]): the file's own reader must have ended
//! exactly where the chunk starts (nothing carried over from the chunk before), and the
//! chunk's reading must have ended exactly at its end, on a record boundary, without an
//! error. Then the sequential reader, started there, would have read the same records in the
//! same way (same code, fresh csv-core state, the same column plan), so its launches are
//! handed over as if read in place. Otherwise the chunk is fed to the file's reader as
//! usual, and the reading is thrown away: a wrong guess costs time, never a different
//! result. Errors are always reported by that sequential reading, with their line numbers.
//!
//! Platform-free: this module has no threads; the CLI runs [`ChunkParser::parse`] on its own
//! (cli/src/parallel.rs).

use super::ncu_metrics::NcuLaunch;
use super::ncu_raw::RawRows;
use super::records::Reader;

/// Reads chunks of one raw page on its own (module doc): `Send`, one per thread.
#[derive(Clone)]
pub struct ChunkParser {
    rows: RawRows,
    /// Per index of the reader's kernel names: its slot in the current chunk's names + 1 (0:
    /// not used in this chunk yet).
    slots: Vec<usize>,
}

/// One launch of a [`ParsedChunk`].
pub(super) struct ParsedLaunch {
    pub id: u64,
    /// Index into the chunk's kernel names.
    pub name: usize,
    pub launch: NcuLaunch,
}

/// What a [`ChunkParser`] read of one chunk (module doc).
#[derive(Default)]
pub struct ParsedChunk {
    /// Bytes taken by complete records, from the chunk's start.
    used: usize,
    /// Line ends in those bytes.
    lines: usize,
    /// Invalid UTF-8 or a row that could not be read: the chunk is fed again, which reports
    /// the error with its line if the chunk really started at a record.
    failed: bool,
    /// The cleaned kernel names the launches use.
    names: Vec<String>,
    launches: Vec<ParsedLaunch>,
}

impl ChunkParser {
    pub(super) fn new(rows: RawRows) -> Self {
        ChunkParser { rows, slots: Vec::new() }
    }

    /// Reads the complete records of `chunk`, taken to start at a record boundary.
    pub fn parse(&mut self, chunk: &[u8]) -> ParsedChunk {
        let mut parsed = ParsedChunk::default();
        self.parse_into(chunk, &mut parsed);
        parsed
    }

    /// [`ChunkParser::parse`] into `parsed`, whose buffers are reused (emptied first): no
    /// allocation per chunk once they have grown, and no fresh pages to fault in.
    pub fn parse_into(&mut self, chunk: &[u8], parsed: &mut ParsedChunk) {
        parsed.clear();
        let Ok(text) = std::str::from_utf8(chunk) else {
            parsed.failed = true;
            return;
        };
        self.slots.iter_mut().for_each(|s| *s = 0);
        let mut reader = Reader::new(text).complete_only();
        while let Some(line) = reader.next_fields(self.rows.fields()) {
            match self.rows.row(line) {
                Ok(None) => {}
                Ok(Some(l)) => {
                    let name = self.slot(l.kernel, &mut parsed.names);
                    parsed.launches.push(ParsedLaunch { id: l.id, name, launch: l.metrics.finish() });
                }
                Err(_) => {
                    parsed.failed = true;
                    return;
                }
            }
        }
        parsed.used = reader.pos();
        parsed.lines = reader.line().saturating_sub(1);
    }

    /// The slot in `names` of the reader's kernel name `index`, copied there on first use.
    fn slot(&mut self, index: usize, names: &mut Vec<String>) -> usize {
        if self.slots.len() <= index {
            self.slots.resize(index + 1, 0);
        }
        match self.slots.get(index).copied() {
            Some(s) if s > 0 => s - 1,
            _ => {
                names.push(self.rows.names().name(index).to_string());
                if let Some(s) = self.slots.get_mut(index) {
                    *s = names.len();
                }
                names.len() - 1
            }
        }
    }
}

impl ParsedChunk {
    /// Whether the reading took all `chunk_bytes` of its chunk without an error: the chunk
    /// ends on a record boundary (the second half of the check, module doc).
    pub fn covers(&self, chunk_bytes: usize) -> bool {
        !self.failed && self.used == chunk_bytes
    }

    /// How many launches were read.
    pub fn launch_count(&self) -> usize {
        self.launches.len()
    }

    pub(super) fn failed(&self) -> bool {
        self.failed
    }

    pub(super) fn lines(&self) -> usize {
        self.lines
    }

    /// The kernel names and the launches, taken out: the launches' buffer stays for reuse.
    pub(super) fn take(&mut self) -> (Vec<String>, std::vec::Drain<'_, ParsedLaunch>) {
        (std::mem::take(&mut self.names), self.launches.drain(..))
    }

    /// Empties it, keeping the launches' buffer.
    fn clear(&mut self) {
        (self.used, self.lines, self.failed) = (0, 0, false);
        self.names.clear();
        self.launches.clear();
    }
}
