//! `.roofline.json`: the same [`View`] as a JSON document, for views too large for a link.
//!
//! `{"roofline_view": "v1", "machine_id": …, "kernels": [{"name", "launches", "counters":
//! {"bytes_dram": …}}], …}`: the [`View`] fields with the version marker first, by which the
//! importers recognise the file. Values are exact (JSON f64), not quantised.
//! Reading is lenient where the link is strict about layout: missing settings take their
//! defaults and unknown fields and counter names are ignored, so a file from a newer build
//! still opens.

use super::view::View;
use super::{view_json, DecodeError, VERSION};
use crate::json::{self, Json};

/// The key whose value names the schema version.
pub const MARKER: &str = "roofline_view";
/// The conventional file name ending.
pub const EXTENSION: &str = ".roofline.json";

/// The view as a `.roofline.json` document (pretty-printed: people open these files).
pub fn to_json(view: &View) -> String {
    let mut out = view_json::write(view, VERSION);
    out.push('\n');
    out
}

pub use crate::import::view_file::{is_view_file, starts_like_json};

/// Reads a `.roofline.json` document.
pub fn from_json(text: &str) -> Result<View, DecodeError> {
    let doc = json::parse(text).map_err(|e| DecodeError(format!("it is not valid JSON ({e})")))?;
    from_document(&doc)
}

/// Reads a parsed `.roofline.json` document (for callers that report syntax errors
/// themselves, with the line).
pub fn from_document(doc: &Json) -> Result<View, DecodeError> {
    if !matches!(doc, Json::Object(_)) {
        return Err(DecodeError("it is not a JSON object".into()));
    }
    match doc.get(MARKER) {
        Some(Json::String(v)) if v == VERSION => {}
        Some(Json::String(v)) => return Err(DecodeError(format!("it is a \"{v}\" view file, which this version does not read (it reads {VERSION})"))),
        _ => return Err(DecodeError(format!("it has no \"{MARKER}\": \"{VERSION}\" marker"))),
    }
    view_json::view(doc).map_err(|e| DecodeError(format!("its content is not a valid view ({e})")))
}
