//! A file read in slices for the parser, the reading overlapping the parsing (issue 17).
//!
//! Why a second worker: a `Blob` read completes on the thread that asked for it, so a read
//! started by this worker before it parses a slice does not progress while it parses (measured:
//! 50 MB in 4 MiB slices, 12 ms of work per slice, waited 77 ms for reads either way). A small
//! reader worker (`public/slice-reader.js`, its protocol is there) reads while this one parses
//! and hands each slice over by transfer. Where a worker cannot start another (an old browser)
//! or the reader fails to load, the slices are read here, the next one asked for before the
//! current one is parsed. The reader is started with the parser and kept for every file.

use super::field;
use super::nested::Nested;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The reader worker's script, beside this worker's (both at the site's root).
const READER: &str = "slice-reader.js";

/// Bytes per slice read here (the reader worker's slices grow from 1 MiB to 16 MiB; its
/// script says why).
const SLICE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// Bytes of a slice copied into wasm memory and parsed at a time. A slice (up to 16 MiB, as
/// reading likes them) is handed to the parser in pieces of this size, so the parser's one
/// buffer stays at 1 MiB, written once and warm in the CPU's caches; a 16 MiB buffer was fresh
/// memory to fault in and zero before the first large slice could be copied, and left the
/// worker at 25 MB after a 50 MB load, against 8 MB now (docs/PERFORMANCE.md). The first piece
/// is the head a second parser is given ([`super::parts`]).
const PIECE_BYTES: u32 = 1024 * 1024;

/// Slices the reader worker may have read ahead of the parser: one being parsed, one
/// waiting, one being read, so at most 48 MiB of a file is held outside wasm memory.
const AHEAD: u32 = 2;

thread_local! {
    /// The reader worker, started with this worker ([`warm_up`]) and kept for every file: a
    /// reader started per file made the parser wait for its start (10–30 ms) before the first slice.
    static WARM: RefCell<Option<Rc<Nested>>> = const { RefCell::new(None) };
}

/// Starts the reader worker, if this browser lets a worker start one (where it does not, or its
/// script fails to load, files are read here).
pub fn warm_up() {
    let reader = Nested::start(READER, None).map(Rc::new);
    WARM.with(|r| *r.borrow_mut() = reader);
}

/// Reads done in this worker: the next slice's read is started before the current one is
/// returned.
struct Here {
    start: f64,
    next: Option<js_sys::Promise>,
}

/// One file's bytes, slice by slice, in order.
pub struct Slices {
    file: web_sys::File,
    name: String,
    /// Where reading ends (exclusive), bytes: the file's size, or a part's end.
    end: f64,
    /// The reader worker reading this file, and the file's number there.
    reader: Option<(Rc<Nested>, u32)>,
    here: Here,
    /// Slices returned so far (a reader that fails after the first cannot be replaced).
    taken: u64,
    /// The slice being handed over in pieces, and how much of it has been.
    current: Option<(js_sys::Uint8Array, u32)>,
}

impl Slices {
    /// The bytes `start` to `end` of `file` (all of it, or the part before or after where a
    /// second parser takes over, [`super::parts`]).
    pub fn range(file: &web_sys::File, start: f64, end: f64) -> Self {
        let end = end.min(file.size());
        // A range of one slice gains nothing from a reader: a hand-over costs more than its read.
        let warm = WARM.with(|r| r.borrow().clone()).filter(|r| !r.inbox.borrow().failed);
        let reader = warm.filter(|_| end - start > SLICE_BYTES).and_then(|r| ask(&r, file, start, end).map(|seq| (r, seq)));
        Slices { file: file.clone(), name: file.name(), end, reader, here: Here { start, next: None }, taken: 0, current: None }
    }

    fn cannot(&self, why: &str) -> String {
        format!("{}: the browser could not read the file ({why})", self.name)
    }

    /// Who read the file: `"worker"` (the reader worker) or `"here"` (this worker).
    pub fn reader(&self) -> &'static str {
        if self.reader.is_some() { "worker" } else { "here" }
    }

    /// The next slice, or `None` after the last.
    async fn next(&mut self) -> Result<Option<js_sys::Uint8Array>, String> {
        if self.reader.is_some() {
            match self.next_from_reader().await {
                Ok(slice) => {
                    self.taken += 1;
                    return Ok(slice);
                }
                // The reader did not start (blocked, missing): read here from the start.
                Err(None) if self.taken == 0 => self.reader = None,
                Err(why) => return Err(self.cannot(&why.unwrap_or_else(|| "its reader stopped".into()))),
            }
        }
        let slice = self.next_here().await?;
        self.taken += 1;
        Ok(slice)
    }

    /// The next piece of the file (at most [`PIECE_BYTES`]) copied into `buf` (one reused
    /// buffer: each byte is copied once into wasm memory and parsed in place); `false` after
    /// the last.
    pub async fn next_into(&mut self, buf: &mut Vec<u8>) -> Result<bool, String> {
        loop {
            if let Some((bytes, at)) = &mut self.current {
                let len = bytes.length();
                if *at < len {
                    let end = at.saturating_add(PIECE_BYTES).min(len);
                    buf.resize((end - *at) as usize, 0);
                    bytes.subarray(*at, end).copy_to(buf);
                    *at = end;
                    return Ok(true);
                }
            }
            self.current = None;
            let Some(bytes) = self.next().await? else { return Ok(false) };
            self.current = Some((bytes, 0));
        }
    }

    /// `Err(None)`: the reader worker itself failed; `Err(Some(why))`: it could not read.
    async fn next_from_reader(&mut self) -> Result<Option<js_sys::Uint8Array>, Option<String>> {
        let Some((reader, seq)) = &self.reader else { return Err(None) };
        // What is left of a file given up (a parse error) carries its number and is dropped.
        let m = reader.next(*seq, None).await.ok_or(None)?;
        if let Some(why) = field(&m, "error").as_string() {
            return Err(Some(why));
        }
        if field(&m, "end").is_truthy() {
            return Ok(None);
        }
        let _ = reader.worker.post_message(&JsValue::from_str("next"));
        Ok(Some(js_sys::Uint8Array::new(&field(&m, "bytes"))))
    }

    async fn next_here(&mut self) -> Result<Option<js_sys::Uint8Array>, String> {
        let size = self.end;
        if self.here.next.is_none() && self.here.start < size {
            self.here.next = Some(self.read_here(self.here.start)?);
        }
        let Some(pending) = self.here.next.take() else { return Ok(None) };
        let bytes = JsFuture::from(pending).await.map_err(|e| self.cannot(&e.as_string().unwrap_or_default()))?;
        self.here.start += SLICE_BYTES;
        if self.here.start < size {
            self.here.next = Some(self.read_here(self.here.start)?);
        }
        Ok(Some(js_sys::Uint8Array::new(&bytes)))
    }

    fn read_here(&self, start: f64) -> Result<js_sys::Promise, String> {
        let end = (start + SLICE_BYTES).min(self.end);
        let slice = self.file.slice_with_f64_and_f64(start, end).map_err(|_| self.cannot("no slice"))?;
        Ok(slice.array_buffer())
    }
}

impl Drop for Slices {
    /// Slices of this file still waiting (a file given up) are let go now; any still in flight
    /// carry its number and are dropped when the next file's are taken.
    fn drop(&mut self) {
        if let Some((reader, _)) = &self.reader {
            reader.inbox.borrow_mut().messages.clear();
        }
    }
}

/// Asks the reader worker for the bytes `start` to `end` of `file` under a new number; `None`
/// if it cannot be asked.
fn ask(reader: &Nested, file: &web_sys::File, start: f64, end: f64) -> Option<u32> {
    reader.ask(&[("file", file.clone().into()), ("ahead", AHEAD.into()), ("start", start.into()), ("end", end.into())])
}
