//! The SQLite worker (Trunk `data-type="worker"`, loaded by `public/rocpd-loader.js`): reads
//! rocprofv3's databases (`*_results.db`) with the engine's `import::rocpd` and SQLite compiled
//! to wasm. It is the only module of the site with SQLite in it (≈ 0.3 MB gzipped), so it is
//! fetched only when a database is dropped: the parser worker (`worker/src/rocpd.rs`) starts it
//! on the first database and keeps it; a page that never sees one never fetches it.
//!
//! The database is not copied into wasm memory: SQLite reads the pages it needs from the `File`
//! through this worker's VFS ([`vfs`]), synchronously, which a worker may.
//!
//! Protocol (the parser is the other side):
//! * the worker posts `"ready"` once it listens, or `{failed: message}` where its wasm could
//!   not be fetched or compiled (the loader) or SQLite could not start;
//! * the parser posts `{seq, file: File}`; the worker posts `{seq, progress: bytes}` (bytes of
//!   the file read so far, every 4 MiB) and then `{seq, read: FileRead, launches: ArrayBuffer,
//!   stats}` (what the engine's `import::rocpd` read, as `dataset::file_read::FileRead`: the
//!   form the parser's second parser hands over, its launches encoded in a transferred buffer,
//!   so the parser adds it with `DatasetBuilder::add_read` and carries no `Imported` decoder)
//!   or `{seq, error: "message naming the file"}`;
//!   `stats` is `{memory_bytes, read_bytes, reads, ms}` (its wasm memory after the read, what
//!   was read of the file and in how many reads, the time), for the benchmark.

use roofline_engine::dataset::file_read::FileRead;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[cfg(target_arch = "wasm32")]
mod vfs;

/// Bytes read between two progress messages.
#[cfg(target_arch = "wasm32")]
const PROGRESS_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

thread_local! {
    /// The job being read (its `seq`) and the bytes read when progress was last posted.
    static JOB: std::cell::RefCell<(JsValue, f64)> = const { std::cell::RefCell::new((JsValue::UNDEFINED, 0.0)) };
}

#[path = "../../worker/src/js.rs"]
mod js;
use js::{field, now, object, scope};

/// Posts an object of these fields.
fn post(fields: &[(&str, JsValue)]) {
    let _ = scope().post_message(&object(fields));
}

/// Called by the VFS after each read from the file: progress every [`PROGRESS_BYTES`].
#[cfg(target_arch = "wasm32")]
fn on_read() {
    let (bytes, _) = vfs::read_so_far();
    JOB.with(|j| {
        let mut j = j.borrow_mut();
        if bytes - j.1 >= PROGRESS_BYTES {
            j.1 = bytes;
            post(&[("seq", j.0.clone()), ("progress", JsValue::from_f64(bytes))]);
        }
    });
}

/// Reads the database `file` with the engine's rocpd reader, SQLite reading its pages from the
/// `File` ([`vfs`]). Errors name the file.
#[cfg(target_arch = "wasm32")]
fn read_database(file: web_sys::File) -> Result<roofline_engine::import::Imported, String> {
    use roofline_engine::import::rocpd::{self, rusqlite};
    let name = file.name();
    // A fixed name: one database at a time, and the name SQLite sees is not the user's (a
    // user's file name may hold `?` or `#`, which an SQLite URI would read as its own).
    const KEY: &str = "database";
    vfs::register(KEY, file);
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let result = rusqlite::Connection::open_with_flags_and_vfs(format!("file:{KEY}?immutable=1"), flags, vfs::VFS_NAME)
        .map_err(|e| format!("{name}: SQLite could not open the database ({e})"))
        .and_then(|conn| rocpd::import_connection(&name, &conn).map_err(|e| e.to_string()));
    vfs::forget(KEY);
    result
}

#[cfg(not(target_arch = "wasm32"))]
fn read_database(file: web_sys::File) -> Result<roofline_engine::import::Imported, String> {
    Err(format!("{}: the SQLite worker runs in the browser only", file.name()))
}

/// The format of what is read, as the parser's builder knows it (`binary::UnreadDatabase`'s,
/// which stands for `import::rocpd` where it is not built in).
const FORMAT: &str = "rocpd";

/// The tool that wrote what is read, for the dataset's file list.
#[cfg(target_arch = "wasm32")]
const TOOL: &str = roofline_engine::import::rocpd::TOOL;
#[cfg(not(target_arch = "wasm32"))]
const TOOL: &str = "";

/// The size of this module's wasm memory, bytes.
fn memory_bytes() -> f64 {
    let buffer = field(&wasm_bindgen::memory(), "buffer");
    field(&buffer, "byteLength").as_f64().unwrap_or(f64::NAN)
}

fn on_message(e: web_sys::MessageEvent) {
    use serde::Serialize;
    let data = e.data();
    let seq = field(&data, "seq");
    JOB.with(|j| *j.borrow_mut() = (seq.clone(), 0.0));
    #[cfg(target_arch = "wasm32")]
    let before = vfs::read_so_far();
    #[cfg(not(target_arch = "wasm32"))]
    let before = (0.0, 0u32);
    let t = now();
    let result = field(&data, "file").dyn_into::<web_sys::File>().map_err(|_| "the SQLite worker was given no file".to_string()).and_then(read_database);
    let answer = result.and_then(|imported| {
        let name = field(&data, "file").dyn_into::<web_sys::File>().map(|f| f.name()).unwrap_or_default();
        // As `DatasetBuilder::add_imported_file` refuses: rocpd gives launches and devices only.
        if imported.machine.is_some() || !imported.alternatives.is_empty() || !imported.transfers.is_empty() {
            return Err(format!("{name}: the database reading has a machine or transfers, which the parser cannot add (an internal error)"));
        }
        let mut read = FileRead::of_imported(FORMAT, Some(TOOL.to_string()), imported);
        let launches = js_sys::Uint8Array::from(std::mem::take(&mut read.launches).as_slice());
        let value = read.serialize(&serde_wasm_bindgen::Serializer::new()).map_err(|e| format!("{name}: {e}"))?;
        Ok((value, launches.buffer()))
    });
    #[cfg(target_arch = "wasm32")]
    let after = vfs::read_so_far();
    #[cfg(not(target_arch = "wasm32"))]
    let after = before;
    let stats = js_sys::Object::new();
    for (k, v) in [("memory_bytes", memory_bytes()), ("read_bytes", after.0 - before.0), ("reads", f64::from(after.1.wrapping_sub(before.1))), ("ms", now() - t)] {
        let _ = js_sys::Reflect::set(&stats, &JsValue::from_str(k), &JsValue::from_f64(v));
    }
    match answer {
        Ok((read, launches)) => {
            let o = object(&[("seq", seq), ("read", read), ("launches", launches.clone().into()), ("stats", stats.into())]);
            let _ = scope().post_message_with_transfer(&o, &js_sys::Array::of1(&launches));
        }
        Err(message) => post(&[("seq", seq), ("error", JsValue::from_str(&message)), ("stats", stats.into())]),
    }
}

fn main() {
    #[cfg(target_arch = "wasm32")]
    if let Err(e) = vfs::install() {
        post(&[("failed", JsValue::from_str(&format!("SQLite could not start ({e})")))]);
        return;
    }
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(on_message);
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    let _ = scope().post_message(&JsValue::from_str("ready"));
}
