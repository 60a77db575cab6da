//! Reading user files (picked or dropped) into the engine, in chunks: each file is read with
//! `File.slice` 4 MiB at a time and handed to the engine's `DatasetBuilder`, which parses and
//! sums per kernel as chunks arrive. Awaiting each slice yields to the event loop, so the page
//! stays responsive and a progress bar can move; memory does not grow with the file for the
//! formats the engine streams (Nsight Compute pages and reports; reports are read in a
//! worker module loaded on first use, report_worker.rs).

use crate::report_worker::{self, ReportWorker};
use roofline_engine::dataset::{Dataset, DatasetBuilder};
use roofline_engine::import::view_file;
use roofline_engine::{limits, SourceFile};
use wasm_bindgen_futures::JsFuture;

/// Bytes read and parsed per step: large enough that per-chunk overhead is negligible, small
/// enough (a few ms of parsing) that no step is a long task.
pub const CHUNK_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

async fn slice_bytes(file: &web_sys::File, start: f64, end: f64, name: &str) -> Result<Vec<u8>, String> {
    let blob = file.slice_with_f64_and_f64(start, end).map_err(|_| format!("{name}: the browser could not read the file"))?;
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(|_| format!("{name}: the browser could not read the file"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads and parses every file of a `FileList` as one dataset. `progress(done, total)` is
/// called after each chunk with bytes so far and in all.
pub async fn load_file_list(list: web_sys::FileList, mut progress: impl FnMut(f64, f64)) -> Result<Dataset, String> {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.item(i)).collect();
    for f in &files {
        // The app streams like the CLI (module doc), so it takes the same limit.
        limits::check_size(&f.name(), f.size() as u64).map_err(|e| e.to_string())?;
    }
    let total: f64 = files.iter().map(|f| f.size()).sum();
    let mut builder = DatasetBuilder::new();
    let mut done = 0.0;
    for file in &files {
        let name = file.name();
        let size = file.size();
        let mut start = 0.0;
        // An empty file still opens (and gets the engine's "empty file" message). Only an
        // empty one: a JSON file is added whole below and a report by the
        // report worker, and an opened file of no bytes would be ended (as empty) first.
        if size <= 0.0 {
            builder.push_chunk(&name, &[]).map_err(|e| e.to_string())?;
        }
        // A JSON file (a `.roofline.json` view, ERT's roofline.json) is read whole and
        // parsed by the browser (json.rs); the engine reads such files whole anyway. An
        // Nsight Compute report goes to the report worker (report_worker.rs).
        let mut whole: Option<Vec<u8>> = None;
        let mut worker: Option<ReportWorker> = None;
        while start < size {
            let end = (start + CHUNK_BYTES).min(size);
            let bytes = slice_bytes(file, start, end, &name).await?;
            if start == 0.0 && starts_like_json(&bytes) {
                whole = Some(Vec::with_capacity(size as usize));
            }
            if start == 0.0 && report_worker::wants_worker(&bytes) {
                worker = Some(ReportWorker::start(&name).await?);
            }
            match (whole.as_mut(), worker.as_ref()) {
                (Some(all), _) => all.extend_from_slice(&bytes),
                (None, Some(w)) => w.push(&bytes)?,
                (None, None) => builder.push_chunk(&name, &bytes).map_err(|e| e.to_string())?,
            }
            done += end - start;
            start = end;
            progress(done, total);
        }
        match (whole, worker) {
            (Some(bytes), _) => crate::json::add_source(&mut builder, &SourceFile { name, bytes }).map_err(|e| e.to_string())?,
            (None, Some(w)) => {
                let read = w.finish().await?;
                builder.add_binary_read(&name, read).map_err(|e| e.to_string())?;
            }
            (None, None) => builder.end_file().map_err(|e| e.to_string())?,
        }
    }
    builder.finish().map_err(|e| e.to_string())
}

/// Whether a file's first bytes start like a JSON object (a character cut at the end of
/// the chunk does not matter).
fn starts_like_json(head: &[u8]) -> bool {
    let valid = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(head.get(..e.valid_up_to()).unwrap_or(&[])).unwrap_or(""),
    };
    view_file::starts_like_json(valid)
}

/// The whole text of the first file of `list` (a `.roofline.json` view file is small).
pub async fn first_file_text(list: &web_sys::FileList) -> Result<String, String> {
    let file = list.item(0).ok_or_else(|| "no file".to_string())?;
    let name = file.name();
    let bytes = slice_bytes(&file, 0.0, file.size(), &name).await?;
    String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))
}
