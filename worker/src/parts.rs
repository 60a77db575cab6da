//! A large file parsed by two workers at once (issue 17): this parser reads the file's first
//! half while a second parser, a copy of this worker started with it, reads the second half;
//! this one then takes the second's launches over in order (`roofline_engine::dataset::part`
//! says why the dataset is the same as reading the file alone, to the bit).
//!
//! Protocol between the two (the second is this worker's script started with the name
//! [`SECOND_NAME`], which `main` reads as its role):
//! * the second posts `"ready"` once it listens (a message posted before would be lost);
//! * the first posts `{seq, file, cut, head: Uint8Array}` (the file's first piece, 1 MiB: [`super::slices`]);
//! * the second reads the file from `cut` to its end in slices (with its own slice reader,
//!   [`super::slices`]), posting `{seq, progress: bytes}` when it starts and after every
//!   4 MiB it reads (signs of life: [`STALL_MS`]), then
//!   `{seq, part: PartRead, launches: ArrayBuffer, ms}` (transferred; `ms`: how long it took),
//!   or `{seq, none: true}`
//!   where the head does not let it read a part, or `{seq, error}` where the browser could not
//!   read the file. A newer `seq` stops an older one's reading;
//! * the first may instead post `{seq, files}`: whole files of a list, [`super::share`].
//!
//! Whatever the second cannot do (no nested workers, its script missing, a file it cannot
//! split, a cut inside a quoted field, no sign of life for [`STALL_MS`]) the first does itself:
//! reading in parts only ever makes a load faster, never different.

use super::nested::Nested;
use super::{field, now, object, scope, slices};
use roofline_engine::dataset::part::{PartParser, PartRead};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The worker name that makes a parser a second parser (`main.rs`, `role`: a name, because
/// a fragment in the address is lost where the service worker serves the script).
pub const SECOND_NAME: &str = "part";

/// The second parser: this worker's own loader. The fragment only labels it (in DevTools
/// and the benchmarks' profiles); its role is its name.
const SECOND: &str = "parser-loader.js#part";

/// Files from this size on are read in two parts. A smaller file is parsed in ≈ 40 ms or
/// less by one parser, most of its load is fixed costs a second parser does not shorten, and
/// the loads of a few MB keep one path (a round figure, not tuned).
pub const SPLIT_MIN_BYTES: f64 = 16.0 * 1024.0 * 1024.0;

/// Files up to this size are read in two parts: the second part's launches are held until
/// the first parser takes them (≈ 110 bytes each, 350 a MB of raw page), so a larger file is
/// read by one parser, whose memory does not grow with the file.
pub const SPLIT_MAX_BYTES: f64 = 512.0 * 1024.0 * 1024.0;

/// How far past the cut the first parser reads to find the line end the part starts after
/// (a raw page's row is a few KB); a file with no line end there is read by one parser.
pub const LOOKAHEAD_BYTES: f64 = 256.0 * 1024.0;

/// How long the first parser waits for a sign of life from the second (its answer, or its
/// progress, posted after every 4 MiB it reads) before it reads the rest itself and asks the
/// second nothing more: far longer than a slice takes on a slow phone (16 MiB at 30 MB/s is
/// half a second), short enough that a second parser that stalls costs a load seconds, not
/// for ever.
pub const STALL_MS: i32 = 4000;

// ---------------------------------------------------------------------------------------
// The first parser's side.

thread_local! {
    static SECOND_PARSER: RefCell<Option<Rc<Nested>>> = const { RefCell::new(None) };
}

/// Starts the second parser with this one, so that its wasm is compiled (and warmed,
/// [`super::warm`]) before a large file arrives.
pub fn warm_up() {
    let second = Nested::start(SECOND, Some(SECOND_NAME)).map(Rc::new);
    SECOND_PARSER.with(|s| *s.borrow_mut() = second);
}

/// A part asked of the second parser.
pub struct Asked {
    second: Rc<Nested>,
    seq: u32,
}

/// How long the first parser waits for the second to start before it says `"settled"`
/// anyway (main.rs): a second parser whose wasm arrives late must not hold back the page's
/// service worker for long.
pub const SETTLE_MS: i32 = 10_000;

/// The second parser, started or not (None where it could not be started at all).
pub fn second() -> Option<Rc<Nested>> {
    SECOND_PARSER.with(|s| s.borrow().clone())
}

/// The second parser, if it is ready, its inbox emptied for a new job.
pub fn second_parser() -> Option<Rc<Nested>> {
    let second = second()?;
    {
        let mut i = second.inbox.borrow_mut();
        if !i.ready || i.failed {
            return None;
        }
        i.messages.clear();
        i.progress = 0.0;
    }
    Some(second)
}

/// Asks the second parser to read `file` from `cut` on, given the file's first bytes `head`;
/// `None` if there is no second parser ready.
pub fn ask(file: &web_sys::File, cut: f64, head: &[u8]) -> Option<Asked> {
    let second = second_parser()?;
    let seq = second.ask(&[("file", file.clone().into()), ("cut", cut.into()), ("head", js_sys::Uint8Array::from(head).into())])?;
    Some(Asked { second, seq })
}

impl Asked {
    /// The second parser (its inbox holds its progress).
    pub fn second(&self) -> Rc<Nested> {
        self.second.clone()
    }

    /// The part, once read, and how long the second parser took, ms; `None` where it could
    /// not read one.
    pub async fn answer(&self) -> Option<(PartRead, f64)> {
        let m = self.second.next(self.seq, Some(STALL_MS)).await?;
        let mut part: PartRead = serde_wasm_bindgen::from_value(field(&m, "part")).ok()?;
        part.launches = js_sys::Uint8Array::new(&field(&m, "launches")).to_vec();
        Some((part, field(&m, "ms").as_f64().unwrap_or(f64::NAN)))
    }
}

// ---------------------------------------------------------------------------------------
// The second parser's side.

thread_local! {
    /// The job being done: a part, or files ([`super::share`]); a newer one stops it.
    static CURRENT: Cell<u32> = const { Cell::new(0) };
}

/// Whether job `seq` is still the one asked for (a newer job stops an older one's reading).
pub fn current(seq: u32) -> bool {
    CURRENT.with(Cell::get) == seq
}

/// Posts `{seq, key: value}` to the first parser.
fn post(seq: u32, key: &str, value: &JsValue) {
    post_fields(&[("seq", seq.into()), (key, value.clone())]);
}

/// Posts a message of these fields to the first parser.
pub fn post_fields(fields: &[(&str, JsValue)]) {
    let _ = scope().post_message(&object(fields));
}

/// Posts a message of these fields and `launches` (as `launches`, its buffer transferred, not
/// copied) to the first parser.
pub fn post_with_launches(fields: &[(&str, JsValue)], launches: &[u8]) {
    let launches = js_sys::Uint8Array::from(launches);
    let o = object(fields);
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str("launches"), &launches.buffer());
    let _ = scope().post_message_with_transfer(&o, &js_sys::Array::of1(&launches.buffer()));
}

/// Listens as a second parser: a part of a file, or whole files ([`super::share`]).
pub fn serve() {
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
        let data = e.data();
        let seq = field(&data, "seq").as_f64().unwrap_or(0.0) as u32;
        CURRENT.with(|c| c.set(seq));
        match field(&data, "files").dyn_into::<js_sys::Array>() {
            Ok(files) => wasm_bindgen_futures::spawn_local(super::share::read_files(seq, files)),
            Err(_) => wasm_bindgen_futures::spawn_local(read_part(seq, data)),
        }
    });
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
}

/// Reads the part one message asks for and posts it.
async fn read_part(seq: u32, data: JsValue) {
    let (Ok(file), Some(cut)) = (field(&data, "file").dyn_into::<web_sys::File>(), field(&data, "cut").as_f64()) else {
        return post(seq, "none", &JsValue::TRUE);
    };
    let head = js_sys::Uint8Array::new(&field(&data, "head")).to_vec();
    post(seq, "progress", &JsValue::from_f64(0.0)); // started
    let Some(mut parser) = PartParser::new(&file.name(), &head, cut as u64) else {
        return post(seq, "none", &JsValue::TRUE);
    };
    drop(head);
    let mut slices = slices::Slices::range(&file, cut, file.size());
    let mut buf: Vec<u8> = Vec::new();
    let mut done = 0.0;
    let mut step = super::ProgressStep::default();
    let t0 = now();
    loop {
        if !current(seq) {
            return; // given up by the first parser: a newer job is asked for
        }
        match slices.next_into(&mut buf).await {
            Ok(true) => {
                parser.push(&buf);
                done += buf.len() as f64;
                if step.due(done) {
                    post(seq, "progress", &JsValue::from_f64(done));
                }
            }
            Ok(false) => break,
            Err(why) => return post(seq, "error", &JsValue::from_str(&why)),
        }
    }
    let mut part = parser.finish();
    let launches = std::mem::take(&mut part.launches);
    let Ok(value) = serde_wasm_bindgen::to_value(&part) else {
        return post(seq, "none", &JsValue::TRUE);
    };
    post_with_launches(&[("seq", seq.into()), ("part", value), ("ms", (now() - t0).into())], &launches);
}
