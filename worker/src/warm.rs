//! Warming the parser's code before the first file (issue 17).
//!
//! Why: V8 compiles a wasm function quickly at its first call (Liftoff) and again, optimised
//! (TurboFan), once it has run enough, on a background thread. Without a warm-up the first
//! file paid for both: the optimising compile ran during the load and, with the file read in
//! two parts, two workers' compiles took the cores the two parsers needed (measured on 2
//! cores: the 50 MB raw page loaded in 170–237 ms the first time, 117–128 ms the second
//! time in the same page; docs/PERFORMANCE.md). Each parser therefore reads a small
//! generated raw page (3.2 MB, a few ms) when it starts, after it says it is ready, so the
//! compiles happen while the page is idle.
//!
//! The page's parser reads it as a file, through the same `answer` as a file the page posts
//! ([`file`]; its answer is not posted): `answer`'s own code (one function, the whole load's
//! async steps, the slices, the second parser's protocol and the answer's serialisation
//! inlined in it) took 10 ms to compile at the first load's start when only the engine was
//! warmed (docs/PERFORMANCE.md, 2026-12-01, late). The second parser reads it with the
//! engine directly ([`warm_up`]): what it runs of its own is small.

use roofline_engine::dataset::DatasetBuilder;
use std::fmt::Write;

/// Rows of the generated page: enough runs of the row loop for V8 to optimise it.
const ROWS: usize = 5000;

/// Columns without a metric this engine reads, as a raw page has hundreds of (their names
/// are made up: they are only text to tokenise).
const FILLER: usize = 60;

/// A raw page (`ncu --csv --page raw`) in the layout of a real one: the header, the units row,
/// then one quoted row per launch with the standard columns, the device's attributes, a time
/// and filler columns.
fn page() -> String {
    let mut text = String::with_capacity(ROWS * 1100);
    let head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size", "Grid Size", "Device", "CC"];
    let attrs = ["device__attribute_display_name", "device__attribute_multiprocessor_count", "device__attribute_max_gpu_frequency_khz", "device__attribute_l2_cache_size", "gpu__time_duration.sum"];
    let names = head.iter().chain(attrs.iter()).map(|n| format!("\"{n}\"")).chain((0..FILLER).map(|i| format!("\"warm_up_{i}\"")));
    text.push_str(&names.collect::<Vec<_>>().join(","));
    text.push('\n');
    let units = std::iter::repeat_n("\"\"", head.len() + attrs.len() - 1).chain(["\"nsecond\""]).chain(std::iter::repeat_n("\"byte\"", FILLER));
    text.push_str(&units.collect::<Vec<_>>().join(","));
    text.push('\n');
    for id in 0..ROWS {
        let _ = write!(text, "\"{id}\",\"1\",\"app\",\"127.0.0.1\",\"void kernel_{}<float>(float*, int)\",\"1\",\"7\",\"(128, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\"", id % 7);
        let _ = write!(text, ",\"NVIDIA H100 80GB HBM3\",\"132\",\"1980000\",\"52428800\",\"{}\"", 1000 + id * 3);
        for i in 0..FILLER {
            let _ = write!(text, ",\"{}\"", (id * 31 + i * 17) % 100_003);
        }
        text.push('\n');
    }
    text
}

/// Reads the generated page with the engine and drops what it read (the second parser's
/// warm-up).
pub fn warm_up() {
    let mut builder = DatasetBuilder::new();
    let text = page();
    // Two chunks: the streamed path a file takes.
    let (a, b) = text.as_bytes().split_at(text.len() / 2);
    let _ = builder.push_chunk("warm-up.csv", a).and_then(|()| builder.push_chunk("warm-up.csv", b)).and_then(|()| builder.finish().map(drop));
}

/// The generated page as a `File` (`warm-up.csv`), for the page's parser to read as it reads
/// a picked file (read here, in 1 MiB pieces: the streamed path); `None` where the browser
/// cannot make one.
pub fn file() -> Option<web_sys::File> {
    let text = page();
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(text.as_bytes()));
    web_sys::File::new_with_u8_array_sequence(&parts, "warm-up.csv").ok()
}
