//! Roofline Explorer's own `.roofline.json` (a saved view, `roofline_engine::share::file`): the
//! way out for views too large for a link. Dropped on the app or given to the CLI like any
//! profiler file, it yields the view's kernels and machine; the chart settings are for
//! `share::file::from_json` callers that restore a whole view.
//!
//! Detected by the `"roofline_view"` marker at the start of a JSON object.

use super::{Imported, Importer};
use crate::error::ImportError;
use crate::json;
use crate::domain::profile::Launch;
use crate::share::file;

/// Whether `text` looks like a `.roofline.json`: a JSON object with the marker key (written
/// first by `share::file::to_json`, but a hand-edited file may have moved it).
pub fn is_view_file(text: &str) -> bool {
    starts_like_json(text) && text.contains("\"roofline_view\"")
}

/// Whether `text` (a whole file, or its first bytes) starts like a JSON object: the only
/// files [`is_view_file`] can accept. The marker may be anywhere in the file, so a reader
/// deciding a file's format from its first bytes must read such a file whole
/// (`DatasetBuilder` does).
pub fn starts_like_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with('{')
}

pub struct RooflineView;

impl Importer for RooflineView {
    fn format(&self) -> &'static str {
        "roofline-view"
    }

    fn detect(&self, text: &str) -> bool {
        is_view_file(text)
    }

    fn import(&self, file_name: &str, text: &str) -> Result<Imported, ImportError> {
        // Syntax errors carry the line; errors in the content name the field.
        let doc = json::parse(text).map_err(|e| ImportError::new(file_name, Some(e.line), format!("invalid JSON in a Roofline Explorer view file: {e}")))?;
        let view = file::from_document(&doc).map_err(|e| ImportError::new(file_name, None, format!("not a valid Roofline Explorer view file: {}", e.0)))?;
        // A launch record stands for `count` launches with per-launch counters (the dataset
        // multiplies them back), and rates such as the clock are not multiplied: divide the
        // view's totals accordingly. A kernel recorded with 0 launches is read as 1.
        let launches = view
            .kernels
            .iter()
            .map(|k| {
                let count = k.launches.max(1);
                let mut counters = k.counters.clone();
                for (c, v) in k.counters.iter() {
                    if !c.is_rate() {
                        counters.set(c, v / count as f64);
                    }
                }
                Launch { id: None, kernel: k.name.clone(), count, counters, device: None }
            })
            .collect();
        Ok(Imported { launches, machine: view.machine(), ..Imported::default() })
    }
}
