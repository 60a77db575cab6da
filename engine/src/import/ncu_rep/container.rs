//! The report's framing, read from chunks of any size: the magic `NVR\0`, a little-endian
//! `u32` length and the file header message, then blocks until the end of the file. A block
//! is a `u32` length and a [`BlockHeader`], then `payload_bytes` of entries, each a `u32`
//! length and a message: first the block's sources, then its results, then entries of kinds
//! this reader does not use (range, command-list and graph results).
//!
//! Memory is one message: a result is kept only until it is complete and handed over; code
//! entries (SASS binaries, megabytes each) are skipped as they stream past. Every length is
//! checked against what contains it and against [`MAX_MESSAGE_BYTES`] before anything is
//! allocated.

use super::messages::{BlockHeader, FileHeader};
use crate::error::ImportError;
use prost::Message;

/// The first bytes of every report (`.ncu-rep`, and `.nsight-cuprof-report` before 2020).
pub const MAGIC: &[u8; 4] = b"NVR\0";

/// The largest message kept whole: a block header (with its string table) or a result. The
/// largest in the samples is 0.8 MB (a `--set full` result on Hopper); source-level metrics
/// can make results a few MB. Larger is taken as a damaged length, not a report to read.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The file header is a few bytes (one small integer).
const MAX_FILE_HEADER_BYTES: usize = 1 << 16;

/// What the framing hands over, in file order.
pub enum Event<'a> {
    FileHeader(FileHeader),
    Block(BlockHeader),
    /// A result message's bytes; `at` is the file offset of its first byte.
    Result { bytes: &'a [u8], at: u64 },
}

/// What a length announces.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Want {
    FileHeader,
    BlockHeader,
    /// A payload entry: a result to hand over, or anything else to skip.
    Entry,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Magic,
    /// Reading the `u32` length of the next message.
    Length(Want),
    /// Collecting a message of `len` bytes.
    Body { want: Want, len: usize, deliver: bool },
    /// Passing over `left` more bytes of an entry that is not read.
    Skip { left: u64 },
}

/// The entries still to come in the current block.
#[derive(Clone, Copy, Debug, Default)]
struct Plan {
    sources: u32,
    results: u32,
    payload_left: u64,
}

/// The chunk-fed framing reader (module doc).
pub struct Container {
    file: String,
    state: State,
    buf: Vec<u8>,
    /// File offset of the next byte to be consumed.
    pos: u64,
    /// File offset where the message being collected starts.
    start: u64,
    plan: Plan,
    blocks: u64,
}

impl Container {
    pub fn new(file: &str) -> Self {
        Container { file: file.to_string(), state: State::Magic, buf: Vec::new(), pos: 0, start: 0, plan: Plan::default(), blocks: 0 }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Blocks read so far.
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    fn error(&self, at: u64, message: impl std::fmt::Display) -> ImportError {
        ImportError::new(&self.file, None, format!("at byte {at}: {message}"))
    }

    /// Reads `data`, the next bytes of the file, handing over what completes.
    pub fn push(&mut self, mut data: &[u8], on: &mut dyn FnMut(Event<'_>) -> Result<(), ImportError>) -> Result<(), ImportError> {
        while !data.is_empty() {
            match self.state {
                State::Magic | State::Length(_) => {
                    if self.buf.is_empty() {
                        self.start = self.pos;
                    }
                    let take = (4 - self.buf.len()).min(data.len());
                    let (head, rest) = data.split_at(take);
                    self.buf.extend_from_slice(head);
                    self.pos += take as u64;
                    data = rest;
                    if let Ok(four) = <[u8; 4]>::try_from(self.buf.as_slice()) {
                        self.buf.clear();
                        self.after_four(four, on)?;
                    }
                }
                State::Skip { left } => {
                    let take = left.min(data.len() as u64);
                    data = data.get(take as usize..).unwrap_or(&[]);
                    self.pos += take;
                    self.state = if take == left { self.after_entry() } else { State::Skip { left: left - take } };
                }
                State::Body { want, len, deliver } => {
                    if self.buf.is_empty() && data.len() >= len {
                        // The whole message is in this chunk: read it in place.
                        let (body, rest) = data.split_at(len);
                        self.pos += len as u64;
                        data = rest;
                        self.message(want, deliver, body, on)?;
                    } else {
                        let take = (len - self.buf.len()).min(data.len());
                        let (head, rest) = data.split_at(take);
                        self.buf.extend_from_slice(head);
                        self.pos += take as u64;
                        data = rest;
                        if self.buf.len() == len {
                            let body = std::mem::take(&mut self.buf);
                            let r = self.message(want, deliver, &body, on);
                            self.buf = body;
                            self.buf.clear();
                            r?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The magic or a length has been read.
    fn after_four(&mut self, four: [u8; 4], on: &mut dyn FnMut(Event<'_>) -> Result<(), ImportError>) -> Result<(), ImportError> {
        let at = self.start;
        let want = match self.state {
            State::Magic => {
                if &four != MAGIC {
                    return Err(self.error(0, "not an Nsight Compute report: expected the bytes `NVR\\0` at the start"));
                }
                self.state = State::Length(Want::FileHeader);
                return Ok(());
            }
            State::Length(w) => w,
            _ => return Ok(()),
        };
        let len = u32::from_le_bytes(four) as usize;
        let (limit, what) = match want {
            Want::FileHeader => (MAX_FILE_HEADER_BYTES, "the file header"),
            Want::BlockHeader => (MAX_MESSAGE_BYTES, "a block header"),
            Want::Entry => {
                if self.plan.payload_left < 4 {
                    return Err(self.error(at, format!("block {} ends {} bytes into an entry's 4-byte length", self.blocks, self.plan.payload_left)));
                }
                self.plan.payload_left -= 4;
                if len as u64 > self.plan.payload_left {
                    return Err(self.error(at, format!("an entry of {len} bytes is longer than the {} bytes left in its block", self.plan.payload_left)));
                }
                self.plan.payload_left -= len as u64;
                (MAX_MESSAGE_BYTES, "a result")
            }
        };
        let deliver = match want {
            Want::Entry if self.plan.sources > 0 => {
                self.plan.sources -= 1;
                false
            }
            Want::Entry if self.plan.results > 0 => {
                self.plan.results -= 1;
                true
            }
            Want::Entry => false,
            _ => true,
        };
        if !deliver {
            self.state = State::Skip { left: len as u64 };
            if len == 0 {
                self.state = self.after_entry();
            }
            return Ok(());
        }
        if len > limit {
            return Err(self.error(at, format!("{what} of {len} bytes is announced; at most {limit} are accepted (a damaged length?)")));
        }
        self.start = self.pos;
        self.state = State::Body { want, len, deliver };
        if len == 0 {
            // An empty message is complete at once.
            self.message(want, deliver, &[], on)?;
        }
        Ok(())
    }

    /// What follows an entry: another entry of the block, or the next block.
    fn after_entry(&mut self) -> State {
        if self.plan.payload_left == 0 {
            State::Length(Want::BlockHeader)
        } else {
            State::Length(Want::Entry)
        }
    }

    /// A complete message.
    fn message(&mut self, want: Want, deliver: bool, body: &[u8], on: &mut dyn FnMut(Event<'_>) -> Result<(), ImportError>) -> Result<(), ImportError> {
        let at = self.start;
        match want {
            Want::FileHeader => {
                let h = FileHeader::decode(body).map_err(|e| self.error(at, format!("the file header is not readable ({e})")))?;
                self.state = State::Length(Want::BlockHeader);
                on(Event::FileHeader(h))
            }
            Want::BlockHeader => {
                let h = BlockHeader::decode(body).map_err(|e| self.error(at, format!("block {} has an unreadable header ({e})", self.blocks + 1)))?;
                self.blocks += 1;
                self.plan = Plan {
                    sources: h.num_sources.unwrap_or(0),
                    results: h.num_results.unwrap_or(0),
                    payload_left: u64::from(h.payload_bytes.unwrap_or(0)),
                };
                self.state = self.after_entry();
                on(Event::Block(h))
            }
            Want::Entry => {
                self.state = self.after_entry();
                if deliver {
                    on(Event::Result { bytes: body, at })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Ends the file: `None` when it ended between blocks, else where and inside what it
    /// was cut.
    pub fn cut(&self) -> Option<String> {
        match self.state {
            State::Length(Want::BlockHeader) if self.buf.is_empty() => None,
            State::Magic => Some("the file is shorter than the 4-byte `NVR\\0` magic".into()),
            State::Length(Want::FileHeader) | State::Body { want: Want::FileHeader, .. } => Some("the file ends inside its header".into()),
            State::Length(Want::BlockHeader) | State::Body { want: Want::BlockHeader, .. } => {
                Some(format!("the file ends at byte {} inside the header of block {}", self.pos, self.blocks + 1))
            }
            _ => Some(format!("the file ends at byte {} inside block {}", self.pos, self.blocks)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::ncu_rep::messages::{MetricResult, ProfileResult};

    /// A report of one block with one source entry and `results` results, framed by hand.
    fn report(results: &[ProfileResult]) -> Vec<u8> {
        let mut payload = Vec::new();
        let source = vec![7u8; 300];
        payload.extend_from_slice(&(source.len() as u32).to_le_bytes());
        payload.extend_from_slice(&source);
        for r in results {
            let b = r.encode_to_vec();
            payload.extend_from_slice(&(b.len() as u32).to_le_bytes());
            payload.extend_from_slice(&b);
        }
        let header = BlockHeader { num_sources: Some(1), num_results: Some(results.len() as u32), payload_bytes: Some(payload.len() as u32), ..Default::default() };
        let mut out = MAGIC.to_vec();
        let fh = FileHeader { version: Some(7) }.encode_to_vec();
        out.extend_from_slice(&(fh.len() as u32).to_le_bytes());
        out.extend_from_slice(&fh);
        let bh = header.encode_to_vec();
        out.extend_from_slice(&(bh.len() as u32).to_le_bytes());
        out.extend_from_slice(&bh);
        out.extend_from_slice(&payload);
        out
    }

    fn result(name: &str, metric: u32) -> ProfileResult {
        ProfileResult { function_name: Some(name.into()), metrics: vec![MetricResult { name_id: Some(metric), ..Default::default() }], ..Default::default() }
    }

    /// The names of the results handed over when `bytes` arrive in chunks of `chunk` bytes.
    fn names(bytes: &[u8], chunk: usize) -> Result<(Vec<String>, Option<String>), ImportError> {
        let mut c = Container::new("t.ncu-rep");
        let mut names = Vec::new();
        for part in bytes.chunks(chunk.max(1)) {
            c.push(part, &mut |e| {
                if let Event::Result { bytes, .. } = e {
                    names.push(ProfileResult::decode(bytes).map_err(|_| ImportError::new("t", None, "x"))?.function_name.unwrap_or_default());
                }
                Ok(())
            })?;
        }
        Ok((names, c.cut()))
    }

    #[test]
    fn results_are_the_same_in_chunks_of_any_size() {
        let bytes = report(&[result("a", 1), result("b", 2)]);
        for chunk in [1, 2, 3, 5, 64, bytes.len()] {
            let (n, cut) = names(&bytes, chunk).unwrap();
            assert_eq!(n, ["a", "b"], "chunk {chunk}");
            assert_eq!(cut, None);
        }
    }

    #[test]
    fn a_cut_file_says_where() {
        let bytes = report(&[result("a", 1), result("b", 2)]);
        let (n, cut) = names(&bytes[..bytes.len() - 3], 7).unwrap();
        assert_eq!(n, ["a"]);
        let cut = cut.unwrap();
        assert!(cut.contains("inside block 1"), "{cut}");
    }

    #[test]
    fn bad_magic_and_lengths_are_errors_not_allocations() {
        let e = names(b"PK\x03\x04rest", 4).unwrap_err();
        assert!(e.message.contains("NVR"), "{}", e.message);
        // A block header announcing 4 GB.
        let mut bytes = report(&[]);
        let fh_end = 4 + 4 + 2;
        bytes.truncate(fh_end);
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        let e = names(&bytes, 3).unwrap_err();
        assert!(e.message.contains("at most"), "{}", e.message);
        // An entry longer than its block.
        let mut bytes = report(&[result("a", 1)]);
        let source_len_at = bytes.len() - (4 + result("a", 1).encode_to_vec().len()) - 300 - 4;
        bytes[source_len_at..source_len_at + 4].copy_from_slice(&100_000u32.to_le_bytes());
        let e = names(&bytes, 1000).unwrap_err();
        assert!(e.message.contains("longer than"), "{}", e.message);
    }
}
