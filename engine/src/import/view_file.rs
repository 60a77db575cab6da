//! Roofline Explorer's own `.roofline.json` (a saved view, `roofline_engine::share::file`): the
//! way out for views too large for a link. Dropped on the app or given to the CLI like any
//! profiler file, it yields the view's kernels and machine ([`ViewFileData`]); the chart
//! settings are read by `share::file`, which restores a whole view and uses the marker and
//! its check ([`Marker`]) from here (layers: `share` above `import`, never the reverse).
//!
//! Detected by the `"roofline_view"` marker at the start of a JSON object.

use super::json::{JsonDocument, JsonError, JsonText, Loose};
use super::{Imported, Importer};
use crate::domain::profile::{KernelProfile, Launch};
use crate::error::ImportError;
use crate::model::{catalogue, Machine};
use serde::Deserialize;

/// The key whose value names the schema version.
pub const MARKER: &str = "roofline_view";
/// The view file schema this build reads and writes.
pub const VERSION: &str = "v1";

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

/// The version marker alone, read before the rest so that a file of another version is
/// refused as such, not for a layout this build does not know.
#[derive(Debug, Default, Deserialize)]
pub struct Marker {
    #[serde(rename = "roofline_view", default)]
    version: Option<Loose<String>>,
}

impl Marker {
    /// `Ok` for a [`VERSION`] file; else why not (completes "the file cannot be opened: …").
    pub fn check(&self) -> Result<(), String> {
        match self.version.as_ref().and_then(Loose::value) {
            Some(v) if v == VERSION => Ok(()),
            Some(v) => Err(format!("it is a \"{v}\" view file, which this version does not read (it reads {VERSION})")),
            None => Err(format!("it has no \"{MARKER}\": \"{VERSION}\" marker")),
        }
    }
}

/// What the importers take from a view file: its machine and kernels. Other members (the
/// chart settings, members of newer versions) are not read here.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ViewFileData {
    /// Catalogue id of the machine; with `custom_machine`, only the id it derived from.
    pub machine_id: String,
    /// The whole machine when it is not a catalogue machine as is.
    pub custom_machine: Option<Machine>,
    /// Totals over launches, base units.
    pub kernels: Vec<KernelProfile>,
}

impl ViewFileData {
    /// The custom machine, else the catalogue's of that id (as `share::View::machine`).
    pub fn machine(&self) -> Option<Machine> {
        self.custom_machine.clone().or_else(|| catalogue::by_id(&self.machine_id))
    }
}

/// Reads a view file's kernels and machine from a parsed document. Syntax errors and errors
/// in the content both name the file and, where the parser says, the line.
pub fn import_document(file_name: &str, doc: &impl JsonDocument) -> Result<Imported, ImportError> {
    let refused = |e: JsonError| {
        let what = if e.syntax { "invalid JSON in a Roofline Explorer view file" } else { "not a valid Roofline Explorer view file" };
        ImportError::new(file_name, e.line, format!("{what}: {}", e.message))
    };
    let marker: Marker = doc.read().map_err(refused)?;
    marker.check().map_err(|why| ImportError::new(file_name, None, format!("not a valid Roofline Explorer view file: {why}")))?;
    let data: ViewFileData = doc.read().map_err(refused)?;
    // A launch record stands for `count` launches with per-launch counters (the dataset
    // multiplies them back), and rates such as the clock are not multiplied: divide the
    // view's totals accordingly. A kernel recorded with 0 launches is read as 1.
    let machine = data.machine();
    let launches = data
        .kernels
        .into_iter()
        .map(|k| {
            let count = k.launches.max(1);
            let mut counters = k.counters.clone();
            for (c, v) in k.counters.iter() {
                if !c.is_rate() {
                    counters.set(c, v / count as f64);
                }
            }
            Launch { id: None, kernel: k.name, count, counters, device: None }
        })
        .collect();
    Ok(Imported { launches, machine, ..Imported::default() })
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
        import_document(file_name, &JsonText(text))
    }
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;

    #[test]
    fn kernels_become_launch_records_and_the_marker_is_checked_first() {
        let text = r#"{"kernels": [{"name": "k", "launches": 4, "counters": {"time_s": 2.0, "clock_hz": 1e9, "fp8_flops": 1}}], "machine_id": "v100", "roofline_view": "v1", "mode": "walls"}"#;
        let got = import_document("v.roofline.json", &JsonText(text)).unwrap();
        assert_eq!(got.machine, Some(catalogue::v100()));
        let l = &got.launches[0];
        assert_eq!((l.kernel.as_str(), l.count, l.id), ("k", 4, None));
        assert_eq!((l.counters.get(Counter::TimeS), l.counters.get(Counter::ClockHz)), (Some(0.5), Some(1e9)), "totals ÷ launches; rates as they are");
        // A newer file is refused as such, even where its layout would not read.
        let e = import_document("n.roofline.json", &JsonText(r#"{"roofline_view": "v2", "kernels": 3}"#)).unwrap_err();
        assert_eq!(e.message, "not a valid Roofline Explorer view file: it is a \"v2\" view file, which this version does not read (it reads v1)");
        let e = import_document("m.roofline.json", &JsonText(r#"{"roofline_view": 1}"#)).unwrap_err();
        assert!(e.message.ends_with("it has no \"roofline_view\": \"v1\" marker"), "{}", e.message);
        let e = import_document("k.roofline.json", &JsonText("{\"roofline_view\": \"v1\",\n \"kernels\": [{\"name\": \"k\", \"launches\": 1}]}")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (Some(2), "not a valid Roofline Explorer view file: missing field `counters` at line 2 column 41"), "column 41: the brace that ends the kernel");
    }
}
