//! Reading a large streamed file on several threads, in file order.
//!
//! Why: tokenizing a large Nsight Compute raw page is most of `roofline analyze`'s time
//! (csv-core ≈ 70 % of the CPU time on 50 MB) and one thread does it at ≈ 1 GB/s; issue 15
//! asks for 5× Python's `csv` reader, which one thread of csv-core does not reach
//! (docs/PERFORMANCE.md).
//!
//! How: the reading thread (`read_ahead.rs`) cuts the file into chunks that end at a line
//! end, so each starts at a line start, which is almost always a record start. Once the
//! engine has read the file's header and units row on this thread
//! (`DatasetBuilder::chunk_parser`), the next chunks are dealt out in turn to worker threads,
//! each with its own copy of the row reader, which read their chunk into launches on the
//! guess that it starts at a record (`roofline_engine::import::speculate`). This thread takes
//! the results back in file order and hands them to the dataset (`push_parsed`), which checks
//! the guess against where the sequential reading really stands and reads the chunk again
//! itself where it was wrong (a chunk starting inside a quoted kernel name with newlines),
//! so the dataset, the JSON report included, is the one the sequential path gives.
//!
//! Memory stays bounded whatever the file's size: at most [`chunks_in_flight`] chunks are
//! dealt out (each a buffer of the chunk size and its launches, ≈ 1 KB per 3 KB row), and
//! the reader runs at most two chunks ahead of them.

use crate::read_ahead::{self, Ends, Stop};
use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::error::ImportError;
use roofline_engine::import::speculate::{ChunkParser, ParsedChunk};
use std::collections::VecDeque;
use std::io::Read;
use std::sync::mpsc::{channel, Receiver, Sender};

/// How the chunks of a file went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Chunks read on this thread (the header's, and those before the workers started).
    pub here: usize,
    /// Chunks read by a worker whose reading was taken.
    pub taken: usize,
    /// Chunks read by a worker and read again here: the guess was wrong, or the reading failed.
    pub read_again: usize,
}

/// Chunks dealt out to `workers` at once: two each, so a worker has the next one queued when
/// it finishes one.
fn chunks_in_flight(workers: usize) -> usize {
    2 * workers.max(1)
}

/// A chunk's buffer, its length, and what a worker read of it (buffers reused from chunk to
/// chunk).
type Reading = (Vec<u8>, usize, ParsedChunk);

/// One worker thread: chunks to read go in, readings come back in the same order.
struct Worker {
    jobs: Sender<Reading>,
    readings: Receiver<Reading>,
}

/// A chunk in flight, in file order.
enum Job {
    /// To read on this thread: the buffer and its length.
    Here(Vec<u8>, usize),
    /// Dealt out to worker `usize`.
    There(usize),
}

/// Reads `file` (named `name`) into `builder` in chunks of `chunk_bytes`, with `workers` worker
/// threads once the file allows it (fewer than 2: all on this thread, with the reading
/// thread ahead). The file is left open in the builder (`end_file` ends it).
pub fn read_file<R: Read + Send>(file: R, name: &str, builder: &mut DatasetBuilder, chunk_bytes: usize, workers: usize) -> Result<Tally, Stop<ImportError>> {
    std::thread::scope(|scope| {
        // Every channel end of this side is dropped when this closure returns, before the scope
        // waits for the threads: a thread blocked on one then stops instead of waiting forever.
        let in_flight = chunks_in_flight(workers);
        let (filled, empty) = read_ahead::start(scope, file, chunk_bytes, Ends::AtLineEnd, in_flight + 2);
        let mut pool: Vec<Worker> = Vec::new();
        // Readings handed over, their buffers kept for the next chunks.
        let mut spare: Vec<ParsedChunk> = Vec::new();
        let mut queue: VecDeque<Job> = VecDeque::new();
        let (mut dealt, mut at_end, mut tally) = (0usize, false, Tally::default());
        loop {
            let limit = if pool.is_empty() { 1 } else { in_flight };
            while !at_end && queue.len() < limit {
                let Ok(next) = filled.recv() else { break };
                let (buf, n) = next.map_err(Stop::Read)?;
                if n == 0 {
                    at_end = true;
                } else if let Some(w) = pool.get(dealt % pool.len().max(1)) {
                    // A worker gone has panicked; the scope reports that when it ends.
                    let _ = w.jobs.send((buf, n, spare.pop().unwrap_or_default()));
                    queue.push_back(Job::There(dealt % pool.len()));
                    dealt += 1;
                } else {
                    queue.push_back(Job::Here(buf, n));
                }
            }
            let Some(job) = queue.pop_front() else { return Ok(tally) };
            let buf = match job {
                Job::Here(buf, n) => {
                    builder.push_chunk(name, buf.get(..n).unwrap_or(&[])).map_err(Stop::Chunk)?;
                    tally.here += 1;
                    if pool.is_empty() && workers >= 2 {
                        if let Some(parser) = builder.chunk_parser() {
                            pool = (0..workers).map(|_| start_worker(scope, parser.clone())).collect();
                        }
                    }
                    buf
                }
                Job::There(w) => {
                    let reading = pool.get(w).and_then(|w| w.readings.recv().ok());
                    let Some((buf, n, mut parsed)) = reading else {
                        return Err(Stop::Read(std::io::Error::other("a parsing thread stopped")));
                    };
                    match builder.push_parsed(name, buf.get(..n).unwrap_or(&[]), &mut parsed).map_err(Stop::Chunk)? {
                        true => tally.taken += 1,
                        false => tally.read_again += 1,
                    }
                    spare.push(parsed);
                    buf
                }
            };
            // The reader has stopped if this fails (at the end of the file).
            let _ = empty.send(buf);
        }
    })
}

/// Starts a worker thread reading chunks with `parser`.
fn start_worker<'scope>(scope: &'scope std::thread::Scope<'scope, '_>, mut parser: ChunkParser) -> Worker {
    let (jobs, inbox) = channel::<Reading>();
    let (outbox, readings) = channel();
    scope.spawn(move || {
        for (buf, n, mut parsed) in inbox {
            parser.parse_into(buf.get(..n).unwrap_or(&[]), &mut parsed);
            if outbox.send((buf, n, parsed)).is_err() {
                return;
            }
        }
    });
    Worker { jobs, readings }
}

#[cfg(test)]
#[path = "parallel_tests.rs"]
mod tests;
