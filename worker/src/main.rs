//! The page's parser, as a web worker (Trunk `data-type="worker"`, started by
//! `app/src/worker.rs`): picked, dropped, pasted and example files are read and parsed here by
//! the engine's `DatasetBuilder`, so the page's main thread only paints, and the page's own
//! wasm carries no importer (docs/PERFORMANCE.md).
//!
//! Protocol (`app/src/worker.rs` is the other side):
//! * the worker posts `"started"` once its wasm runs, then `"ready"` once it listens (it
//!   starts its own workers between the two: [`main`] says why the page watches that gap),
//!   then `"settled"` once its second parser has started as well; or `{failed: message}`
//!   where its wasm could not be fetched or compiled (`public/parser-loader.js`);
//! * the page posts `{id, files: [File, …]}` (read in slices by a reader worker, started with
//!   this one, while the engine parses the slice before, [`slices`]; memory does not grow
//!   with the file for the formats the engine streams) or
//!   `{id, sources: [{name, bytes: Uint8Array}, …]}` (text already in memory);
//! * the worker answers `{id, progress: fraction}` every 4 MiB of a file list, then once
//!   `{id, stats: {memory_bytes, read_ms, parse_ms, part_wait_ms, take_ms, second_ms,
//!   wire_ms, parts, elsewhere, reader}}` (its wasm memory, where the time went, how many
//!   parsers read the file ([`parts`]), how many of a list's files the second parser read
//!   ([`share`]) and who read the files, for DevTools, the benchmark and the tests)
//!   and `{id, ok: DatasetWire}`
//!   (serde, JSON-compatible) or `{id, error: "Nothing was loaded … naming the file and line"}`.
//!   A file that cannot be read (not a profiler format, corrupt, failing mid-way in either
//!   parser, too large, unreadable by the browser) does not fail the list: the engine's builder
//!   keeps going (`DatasetBuilder::keep_going`), and the dataset of the other files comes with
//!   a warning first naming each file left out and why; only a list of which nothing could be
//!   read is an `error`.
//!
//! Cancelling is the page's `Worker.terminate()`: it stops a parse at once, wherever it is,
//! and frees the worker's memory; the page starts a fresh worker for the next load.

use roofline_engine::dataset::wire::DatasetWire;
use roofline_engine::dataset::{file_read, part, Dataset, DatasetBuilder};
use roofline_engine::limits;
use nested::Nested;
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod nested;
mod parts;
mod rocpd;
mod share;
mod slices;
mod warm;

/// Bytes parsed between two progress messages.
const PROGRESS_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// When a parser posts its progress: once every [`PROGRESS_BYTES`] read. The first parser
/// posts the page's, the second its signs of life to the first ([`parts`], [`share`]): one
/// message per 1 MiB piece ([`slices`]) was 25 for a 50 MB file's part.
#[derive(Default)]
struct ProgressStep {
    posted: f64,
}

impl ProgressStep {
    /// Whether `done` bytes read in all call for a progress message now.
    fn due(&mut self, done: f64) -> bool {
        let due = done - self.posted >= PROGRESS_BYTES;
        if due {
            self.posted = done;
        }
        due
    }
}

mod js;
use js::{field, now, object, scope};

/// Posts `{id, key: value}` to the page.
fn reply(id: &JsValue, key: &str, value: &JsValue) {
    let _ = scope().post_message(&object(&[("id", id.clone()), (key, value.clone())]));
}

/// Reads and parses every file of the list as one dataset, posting progress every
/// [`PROGRESS_BYTES`]. Each file is read in slices by a reader worker while the engine
/// parses the slice before ([`slices`] says why). A large file is read in two parts by two
/// parsers at once ([`parts`]), or a list's last files are read by the second parser while
/// this one reads the first ones ([`share`]): whichever leaves the busier parser the fewest
/// bytes (`file_read::plan`).
async fn load_files(id: &JsValue, files: &js_sys::Array, times: &mut Times) -> Result<Dataset, String> {
    let mut builder = DatasetBuilder::keep_going();
    // A file too large is left out before the others are shared between the parsers.
    let mut files: Vec<web_sys::File> = files.iter().filter_map(|f| f.dyn_into().ok()).collect();
    let mut too_large = Vec::new();
    files.retain(|f| limits::check_size(&f.name(), f.size() as u64).map_err(|e| too_large.push(e)).is_ok());
    for e in too_large {
        builder.fail_file(e).map_err(|e| e.to_string())?;
    }
    let total: f64 = files.iter().map(|f| f.size()).sum();
    // SQLite databases are read by the SQLite worker meanwhile, and added last ([`rocpd`]).
    let (databases, files) = rocpd::split(files).await;
    let databases_read = match rocpd::Reads::ask(&databases).await {
        Ok(read) => read.map(Rc::new),
        Err(why) => {
            // No SQLite worker: every database is left out, for that reason.
            for f in &databases {
                builder.fail_file(roofline_engine::ImportError::new(&f.name(), None, why.clone())).map_err(|e| e.to_string())?;
            }
            None
        }
    };
    let mut progress = Progress { id: id.clone(), total, done: 0.0, step: ProgressStep::default(), second: None, databases: databases_read.clone() };
    let mut buf: Vec<u8> = Vec::new();
    // The second parser reads a part of one file (`split`) or the files from `from` on.
    let sizes: Vec<u64> = files.iter().map(|f| f.size() as u64).collect();
    let (split, from) = match file_read::plan(&sizes, parts::SPLIT_MIN_BYTES as u64..=parts::SPLIT_MAX_BYTES as u64, share::SHARE_MIN_BYTES as u64) {
        file_read::Plan::Split(i) => (Some(i), files.len()),
        file_read::Plan::Share(from) => (None, from),
        file_read::Plan::One => (None, files.len()),
    };
    let mut shared = files.get(from..).filter(|rest| !rest.is_empty()).and_then(share::ask);
    progress.second = shared.as_ref().map(share::Shared::second);
    for (i, file) in files.iter().enumerate() {
        if let (Some(s), Some(index)) = (shared.as_mut(), i.checked_sub(from)) {
            let t = now();
            let read = s.answer(index).await;
            times.part_wait_ms += now() - t;
            progress.add(0.0);
            if let Some(read) = read {
                let t = now();
                builder.add_read(&file.name(), &read).map_err(|e| e.to_string())?;
                let take_ms = now() - t;
                times.take_ms += take_ms;
                times.parse_ms += take_ms;
                times.elsewhere += 1;
                continue;
            }
        }
        if file.size() <= 0.0 {
            builder.push_chunk(&file.name(), &[]).map_err(|e| e.to_string())?;
        }
        if let Err(why) = read_file(file, split == Some(i), &mut builder, &mut buf, &mut progress, times).await {
            // The builder's own errors are the files' (kept going past): this is the browser's.
            let name = file.name();
            let why = why.strip_prefix(&format!("{name}: ")).unwrap_or(&why).to_string();
            builder.fail_file(roofline_engine::ImportError::new(&name, None, why)).map_err(|e| e.to_string())?;
        }
        let t = now();
        builder.end_file().map_err(|e| e.to_string())?;
        times.parse_ms += now() - t;
    }
    if let Some(read) = &databases_read {
        let t = now();
        for (i, file) in databases.iter().enumerate() {
            let name = file.name();
            match read.answer(i, &name, || progress.add(0.0)).await {
                Ok(read) => builder.add_read(&name, &read),
                // Left out, as a text file that cannot be read is (keep-going).
                Err(why) => builder.fail_file(roofline_engine::ImportError::new(&name, None, why.strip_prefix(&format!("{name}: ")).unwrap_or(&why))),
            }
            .map_err(|e| e.to_string())?;
        }
        times.database_wait_ms = now() - t;
        times.database = read.stats.get();
    }
    let t = now();
    let ds = builder.finish().map_err(|e| e.to_string());
    times.parse_ms += now() - t;
    ds
}

/// A file list's bytes read so far, and when progress was last posted.
struct Progress {
    id: JsValue,
    total: f64,
    done: f64,
    step: ProgressStep,
    /// The second parser while it reads a part or files of the list: its bytes count too.
    second: Option<Rc<Nested>>,
    /// The list's databases, read by the SQLite worker ([`rocpd`]): their bytes count too.
    databases: Option<Rc<rocpd::Reads>>,
}

impl Progress {
    /// Counts `bytes` more read here, and what the second parser has read.
    fn add(&mut self, bytes: f64) {
        self.done += bytes;
        let done = self.done + self.second.as_ref().map_or(0.0, |s| s.inbox.borrow().progress) + self.databases.as_ref().map_or(0.0, |d| d.progress());
        // No id: the warm-up's load, which the page did not ask for.
        if self.step.due(done) && !self.id.is_undefined() {
            reply(&self.id, "progress", &JsValue::from_f64(if self.total > 0.0 { (done / self.total).min(1.0) } else { 1.0 }));
        }
    }
}

/// Pushes one file to `builder`, slice by slice. With `split`, the second parser is asked for
/// the file from its middle on, and this one reads up to where that part starts and takes it
/// over; where it cannot, this one reads the rest (the dataset is the same either way).
async fn read_file(file: &web_sys::File, split: bool, builder: &mut DatasetBuilder, buf: &mut Vec<u8>, progress: &mut Progress, times: &mut Times) -> Result<(), String> {
    let (name, size) = (file.name(), file.size());
    let cut = (size / 2.0).floor();
    let mut asked: Option<parts::Asked> = None;
    // Where the part starts (`part::start_in`: the rule the second parser applies to the
    // same bytes).
    let mut part_start: Option<f64> = None;
    let mut at = 0.0;
    let mut slices = slices::Slices::range(file, 0.0, if split { (cut + parts::LOOKAHEAD_BYTES).min(size) } else { size });
    while part_start.is_none() && next_slice(&mut slices, buf, times).await? {
        if split && at == 0.0 {
            asked = parts::ask(file, cut, buf);
            progress.second = asked.as_ref().map(parts::Asked::second);
        }
        let mut take = buf.len();
        if asked.is_some() {
            if let Some(i) = part::start_in(at as u64, cut as u64, buf) {
                take = i;
                part_start = Some(at + take as f64);
            }
        }
        push(builder, &name, buf.get(..take).unwrap_or(&[]), times)?;
        at += take as f64;
        progress.add(take as f64);
        if builder.has_failed(&name) {
            break; // left out: the rest is not worth reading
        }
    }
    times.reader = slices.reader();
    drop(slices);
    if builder.has_failed(&name) {
        progress.add(size - at);
        return Ok(());
    }
    if let (Some(start), Some(asked)) = (part_start, asked) {
        let t = now();
        let answer = asked.answer().await.filter(|(p, _)| p.start == Some(start as u64));
        times.part_wait_ms += now() - t;
        if let Some((part, second_ms)) = answer {
            let t = now();
            let taken = builder.take_part(&name, &part).map_err(|e| e.to_string())?;
            let take_ms = now() - t;
            times.take_ms += take_ms;
            times.parse_ms += take_ms;
            times.second_ms = second_ms;
            if taken {
                times.parts = 2;
                progress.second = None;
                progress.add(size - at);
                return Ok(());
            }
        }
    }
    // The rest of the file, read here (what a second parser read of it no longer counts).
    if split {
        progress.second = None;
    }
    if at < size {
        let mut slices = slices::Slices::range(file, at, size);
        while next_slice(&mut slices, buf, times).await? {
            push(builder, &name, buf, times)?;
            progress.add(buf.len() as f64);
            if builder.has_failed(&name) {
                break;
            }
        }
    }
    Ok(())
}

/// Waits for the next piece of the file (a slice is handed over 1 MiB at a time, [`slices`])
/// and copies it into `buf` (one reused buffer: each byte is copied once into wasm memory and
/// parsed in place); `false` after the last. The time counts as reading.
async fn next_slice(slices: &mut slices::Slices, buf: &mut Vec<u8>, times: &mut Times) -> Result<bool, String> {
    let t = now();
    let more = slices.next_into(buf).await?;
    times.read_ms += now() - t;
    Ok(more)
}

/// Pushes `bytes` of the file `name` to the builder; the time counts as parsing.
fn push(builder: &mut DatasetBuilder, name: &str, bytes: &[u8], times: &mut Times) -> Result<(), String> {
    let t = now();
    builder.push_chunk(name, bytes).map_err(|e| e.to_string())?;
    times.parse_ms += now() - t;
    Ok(())
}

/// Where a load's time went in the worker, ms: waiting for the file's next chunk and copying
/// it into wasm memory (what reading costs beyond what overlaps parsing), parsing (the
/// engine, taking the second parser's part over included), waiting for that part, and
/// writing the dataset as a JavaScript value.
#[derive(Default)]
struct Times {
    read_ms: f64,
    parse_ms: f64,
    part_wait_ms: f64,
    /// Of `parse_ms`, taking the second parser's part or files over; and how long it read
    /// the part.
    take_ms: f64,
    second_ms: f64,
    wire_ms: f64,
    /// Who read the last file ([`slices::Slices::reader`]); empty for text already in memory.
    reader: &'static str,
    /// How many parsers read the last file: 2 when the second's part was taken over.
    parts: u8,
    /// Files of the list read whole by the second parser ([`share`]).
    elsewhere: u32,
    /// Waiting for the SQLite worker's databases after the other files, and what it said of
    /// its reads ([`rocpd`]).
    database_wait_ms: f64,
    database: rocpd::Stats,
}

/// Parses files already in memory (pasted text, fetched examples) as one dataset.
fn load_sources(sources: &JsValue) -> Result<Dataset, String> {
    let sources: &js_sys::Array = sources.dyn_ref().ok_or_else(|| "nothing to read".to_string())?;
    let mut builder = DatasetBuilder::keep_going();
    for s in sources.iter() {
        let name = field(&s, "name").as_string().unwrap_or_else(|| "pasted text".into());
        let bytes = js_sys::Uint8Array::new(&field(&s, "bytes")).to_vec();
        builder.add_file(&roofline_engine::SourceFile { name, bytes }).map_err(|e| e.to_string())?;
    }
    builder.finish().map_err(|e| e.to_string())
}

fn on_message(e: web_sys::MessageEvent) {
    wasm_bindgen_futures::spawn_local(answer(e.data(), Reply::Post));
}

/// What [`answer`] does with its answer: posts it to the page, or drops it (the warm-up's).
#[derive(Clone, Copy, PartialEq)]
enum Reply {
    Post,
    Drop,
}

/// Reads what one message asks for and posts the answer (with [`Reply::Post`]). The warm-up
/// runs it too ([`warm`]), so that its code is compiled before the first file.
async fn answer(data: JsValue, how: Reply) {
    let id = field(&data, "id");
    let files = field(&data, "files");
    let mut times = Times::default();
    let result = if files.is_array() { load_files(&id, files.unchecked_ref(), &mut times).await } else { load_sources(&field(&data, "sources")) };
    let t = now();
    let wire = result.and_then(|ds| DatasetWire::from(ds).serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| e.to_string()));
    times.wire_ms = now() - t;
    // The worker's wasm memory after the load (it only grows), for the benchmark's memory
    // budget, and where the time went.
    let stats = js_sys::Object::new();
    let parts = f64::from(times.parts.max(1));
    for (k, v) in [("memory_bytes", memory_bytes()), ("read_ms", times.read_ms), ("parse_ms", times.parse_ms), ("part_wait_ms", times.part_wait_ms), ("take_ms", times.take_ms), ("second_ms", times.second_ms), ("wire_ms", times.wire_ms), ("parts", parts), ("elsewhere", f64::from(times.elsewhere)), ("database_wait_ms", times.database_wait_ms), ("database_ms", times.database.ms), ("database_read_bytes", times.database.read_bytes), ("database_memory_bytes", times.database.memory_bytes)] {
        let _ = js_sys::Reflect::set(&stats, &JsValue::from_str(k), &JsValue::from_f64(v));
    }
    let _ = js_sys::Reflect::set(&stats, &JsValue::from_str("reader"), &JsValue::from_str(times.reader));
    if how == Reply::Drop {
        return;
    }
    reply(&id, "stats", &stats);
    match wire {
        Ok(v) => reply(&id, "ok", &v),
        // The page keeps its previous view: the alert says that it is not this load's.
        Err(message) => reply(&id, "error", &JsValue::from_str(&format!("Nothing was loaded; the view is unchanged. {message}"))),
    }
}

/// The size of this module's wasm memory, bytes.
fn memory_bytes() -> f64 {
    let buffer = field(&wasm_bindgen::memory(), "buffer");
    field(&buffer, "byteLength").as_f64().unwrap_or(f64::NAN)
}

/// This parser's role: the name the page or the first parser started it with
/// (`new Worker(url, {name})`): [`parts::SECOND_NAME`] for a second parser ([`parts`]),
/// [`SOLO_NAME`] for a parser that starts no worker of its own (the page's fallback, below),
/// anything else for the page's parser.
///
/// The name, not the address: a worker's script that the site's service worker serves (every
/// visit after the first, `public/sw.js`) runs at the address of the cached response, which
/// has no fragment. When the role was the fragment (`#part`), a second parser started on such
/// a visit took itself for the page's parser and started a second parser of its own, which
/// did the same, without end (a new pair of workers every ≈ 85 ms), and a large file waited
/// [`parts::STALL_MS`] for a part that never came (docs/PERFORMANCE.md, 2026-12-01, late).
fn role() -> String {
    field(&js_sys::global(), "name").as_string().unwrap_or_default()
}

fn main() {
    let role = role();
    if role == parts::SECOND_NAME {
        parts::serve();
        slices::warm_up();
        let _ = scope().post_message(&JsValue::from_str("ready"));
        warm::warm_up();
        return;
    }
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(on_message);
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    // "started", then the workers of its own, then "ready": in Firefox 153 a worker's
    // `new Worker()` never returned when a service worker activated at the same moment (seen in
    // about one full run of the Firefox scenarios in two, 2026-11-27: "started" came, then
    // nothing, for a minute; docs/BROWSERS.md). The page takes "started" without "ready" soon
    // after as such a hang and starts another parser, then a `#solo` one, which reads
    // everything itself (app/src/worker.rs).
    let _ = scope().post_message(&JsValue::from_str("started"));
    if role != SOLO_NAME {
        slices::warm_up();
        parts::warm_up();
    }
    let _ = scope().post_message(&JsValue::from_str("ready"));
    // The warm-up reads its file as a picked file is read ([`warm`]), its answer dropped.
    if let Some(file) = warm::file() {
        let files = js_sys::Array::of1(&file);
        wasm_bindgen_futures::spawn_local(answer(object(&[("files", files.into())]).into(), Reply::Drop));
    } else {
        warm::warm_up();
    }
    // "settled" once the second parser has started too (it starts a slice reader of its own):
    // the page registers the service worker only then, because in Firefox 153 a service
    // worker's activation and a worker starting a worker hang each other (docs/BROWSERS.md).
    wasm_bindgen_futures::spawn_local(async {
        if let Some(second) = parts::second() {
            second.settled(parts::SETTLE_MS).await;
        }
        let _ = scope().post_message(&JsValue::from_str("settled"));
    });
}

/// The name of a parser that starts no worker of its own (no slice reader, no second
/// parser): it reads and parses every file itself (`app/src/worker.rs` starts it so).
const SOLO_NAME: &str = "solo";
