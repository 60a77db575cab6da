//! Several files parsed at once (issue 17): while this parser reads the first files of a list,
//! the second parser (the copy of this worker that [`super::parts`] starts) reads the last ones
//! whole; this one then adds them in the list's order (`roofline_engine::dataset::file_read`
//! says why the dataset is the one a single parser makes, to the bit). Which files the second
//! reads: `file_read::second_share`, the most even split of the list's bytes.
//!
//! Protocol between the two (beside [`super::parts`]'s, on the same second parser):
//! * the first posts `{seq, files: [File, …]}` (the files the second reads, in order);
//! * the second reads each whole in slices (with its own slice reader), posting
//!   `{seq, progress: bytes}` when it starts and after every 4 MiB, and for each file in order
//!   `{seq, index, read: FileRead, launches: ArrayBuffer}` (transferred) or `{seq, index,
//!   none: true}` where it leaves the file to the first (a format read whole, or a file the
//!   browser could not read: the first then reads it, and says why if it cannot either).
//!
//! Whatever the second cannot do the first does itself, file by file, and where the second says
//! nothing for [`parts::STALL_MS`] the first reads the rest of the list: sharing a list only
//! ever makes a load faster, never different.

use super::nested::Nested;
use super::parts::{self, second_parser};
use super::{field, slices};
use roofline_engine::dataset::file_read::{FileParser, FileRead};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A list's files are shared between the two parsers from this many bytes in all. Below it a
/// load is parsed in a few ms, which a message round trip to the second parser and its own
/// slice reading would eat (a round figure, as [`parts::SPLIT_MIN_BYTES`]).
pub const SHARE_MIN_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

// ---------------------------------------------------------------------------------------
// The first parser's side.

/// Files asked of the second parser.
pub struct Shared {
    second: Rc<Nested>,
    seq: u32,
    /// The second failed or answered out of turn: the first reads the rest.
    gone: bool,
}

/// Asks the second parser to read `files`; `None` if there is no second parser ready.
pub fn ask(files: &[web_sys::File]) -> Option<Shared> {
    let second = second_parser()?;
    let list = files.iter().cloned().map(JsValue::from).collect::<js_sys::Array>();
    let seq = second.ask(&[("files", list.into())])?;
    Some(Shared { second, seq, gone: false })
}

impl Shared {
    /// The second parser (its inbox holds its progress).
    pub fn second(&self) -> Rc<Nested> {
        self.second.clone()
    }

    /// The second's read of its file `index` (0 for the first file asked), once read; `None`
    /// where it left the file to this parser.
    pub async fn answer(&mut self, index: usize) -> Option<FileRead> {
        if self.gone {
            return None;
        }
        let Some(m) = self.second.next(self.seq, Some(parts::STALL_MS)).await else {
            self.gone = true;
            return None;
        };
        if field(&m, "index").as_f64() != Some(index as f64) {
            self.gone = true;
            return None;
        }
        let mut read: FileRead = serde_wasm_bindgen::from_value(field(&m, "read")).ok()?;
        read.launches = js_sys::Uint8Array::new(&field(&m, "launches")).to_vec();
        Some(read)
    }
}

// ---------------------------------------------------------------------------------------
// The second parser's side.

/// Reads the files one message asks for, posting each file's read in order.
pub async fn read_files(seq: u32, files: js_sys::Array) {
    let mut progress = 0.0; // bytes read
    let mut step = super::ProgressStep::default();
    parts::post_fields(&[("seq", seq.into()), ("progress", progress.into())]); // started
    // Leaves file `index` to the first parser.
    let leave = |index: usize| parts::post_fields(&[("seq", seq.into()), ("index", index.into()), ("none", JsValue::TRUE)]);
    for (index, file) in files.iter().enumerate() {
        let Ok(file) = file.dyn_into::<web_sys::File>() else {
            leave(index);
            continue;
        };
        let Some(mut read) = read_file(seq, &file, &mut progress, &mut step).await else {
            if !parts::current(seq) {
                return; // given up by the first parser
            }
            leave(index);
            continue;
        };
        let launches = std::mem::take(&mut read.launches);
        let Ok(value) = serde_wasm_bindgen::to_value(&read) else {
            leave(index);
            continue;
        };
        parts::post_with_launches(&[("seq", seq.into()), ("index", index.into()), ("read", value)], &launches);
    }
}

/// Reads one file whole; `None` where the first parser should read it (a format read whole,
/// a file the browser could not read, or the list given up).
async fn read_file(seq: u32, file: &web_sys::File, progress: &mut f64, step: &mut super::ProgressStep) -> Option<FileRead> {
    let mut parser = FileParser::new(&file.name());
    let mut slices = slices::Slices::range(file, 0.0, file.size());
    let mut buf: Vec<u8> = Vec::new();
    while parser.wanted() {
        if !parts::current(seq) {
            return None;
        }
        if !slices.next_into(&mut buf).await.ok()? {
            break;
        }
        parser.push(&buf);
        *progress += buf.len() as f64;
        if step.due(*progress) {
            parts::post_fields(&[("seq", seq.into()), ("progress", (*progress).into())]);
        }
    }
    parser.finish()
}
