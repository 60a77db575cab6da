//! `.roofline.json`: the same [`View`] as a JSON document, for views too large for a link.
//!
//! `{"roofline_view": "v1", "machine_id": …, "kernels": [{"name", "launches", "counters":
//! {"bytes_dram": …}}], …}`: the [`View`] fields with the version marker first, by which the
//! importers recognise the file. Values are exact (JSON f64), not quantised.
//! Reading is lenient where the link is strict about layout (see [`View`]'s serde rules):
//! missing settings take their defaults and unknown fields and counter names are ignored, so
//! a file from a newer build still opens. The marker and its check, and the kernels and
//! machine the importers read, are `import::view_file`'s (the layer below).
//!
//! Written and read through serde: with serde_json natively ([`to_json`], [`from_json`]), and
//! in the web app through serde-wasm-bindgen and the browser's `JSON.stringify`/`JSON.parse`
//! ([`document`] to write, [`from_document`] to read).

use super::view::View;
use super::DecodeError;
use crate::import::json::JsonDocument;
use crate::import::view_file::{Marker, VERSION};
use serde::Serialize;

pub use crate::import::view_file::{is_view_file, starts_like_json, MARKER};

/// The conventional file name ending.
pub const EXTENSION: &str = ".roofline.json";

/// The document written for `view`: the marker, then the view's fields in declaration order.
#[derive(Serialize)]
pub struct Document<'a> {
    roofline_view: &'static str,
    #[serde(flatten)]
    view: &'a View,
}

/// `view` as the document a `.roofline.json` holds (serialize it with any serde serializer).
pub fn document(view: &View) -> Document<'_> {
    Document { roofline_view: VERSION, view }
}

/// The view as a `.roofline.json` document (pretty-printed: people open these files; a final
/// line end).
#[cfg(feature = "json")]
pub fn to_json(view: &View) -> String {
    // Serialising a View cannot fail (string keys, no maps with other keys); an empty
    // document would say so at the first read.
    let mut out = serde_json::to_string_pretty(&document(view)).unwrap_or_default();
    out.push('\n');
    out
}

/// Reads a `.roofline.json` document from its text.
#[cfg(feature = "json")]
pub fn from_json(text: &str) -> Result<View, DecodeError> {
    if !starts_like_json(text) {
        return Err(DecodeError("it is not a JSON object".into()));
    }
    from_document(&crate::import::json::JsonText(text))
}

/// Reads a parsed `.roofline.json` document: the marker first (a newer file is refused as
/// such), then the view.
pub fn from_document(doc: &impl JsonDocument) -> Result<View, DecodeError> {
    let marker: Marker = doc.read().map_err(|e| DecodeError(format!("it is not valid JSON ({e})")))?;
    marker.check().map_err(DecodeError)?;
    doc.read().map_err(|e| DecodeError(format!("its content is not a valid view ({e})")))
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;
    use crate::chart::Zoom;
    use crate::domain::counters::{Counter, Counters};
    use crate::model::{catalogue, ComputeKind};
    use crate::share::SharedKernel;

    fn read(text: &str) -> Result<View, String> {
        from_json(text).map_err(|e| e.0)
    }

    #[test]
    fn missing_settings_take_their_defaults_and_unknown_fields_are_ignored() {
        let v = read(r#"{"roofline_view": "v1", "kernels": [{"name": "k", "launches": 2, "counters": {"time_s": 1.5, "bytes_l2": null, "fp8_flops": 3}}], "new": [1]}"#).unwrap();
        let expected = View { kernels: vec![SharedKernel { name: "k".into(), launches: 2, counters: Counters::from_pairs(&[(Counter::TimeS, 1.5)]) }], ..View::default() };
        assert_eq!(v, expected);
        let v = read(r#"{"roofline_view": "v1", "compute": null, "zoom": {"x": [0.5, 2], "y": [1e9, 1e12]}, "top_n": 7, "selected": 0, "theme": "dark", "word_bytes": 4}"#).unwrap();
        assert_eq!((v.compute, v.zoom, v.top_n, v.selected, v.theme.as_deref(), v.word_bytes), (None, Some(Zoom { x: [0.5, 2.0], y: [1e9, 1e12] }), Some(7), Some(0), Some("dark"), 4));
    }

    #[test]
    fn a_whole_machine_reads_back_as_it_was_written() {
        // Every catalogue machine has every optional part somewhere (issue, links, peak sets).
        for m in catalogue::all() {
            let v = View { machine_id: "x".into(), custom_machine: Some(m.clone()), ..View::default() };
            assert_eq!(read(&to_json(&v)).unwrap().custom_machine, Some(m));
        }
        let minimal = r#"{"roofline_view": "v1", "custom_machine": {"id": "m", "name": "M", "source": "s", "compute": [{"name": "FP64", "kind": "fp64", "flops_per_s": 1e12}], "memory": []}}"#;
        let m = read(minimal).unwrap().custom_machine.unwrap();
        assert_eq!((m.compute[0].kind, m.links.len(), m.issue), (ComputeKind::Fp64, 0, None));
    }

    #[test]
    fn wrong_types_are_refused_naming_what_was_expected() {
        let e = |text: &str| read(&format!("{{\"roofline_view\": \"v1\", {text}}}")).unwrap_err();
        assert!(e(r#""kernels": 3"#).contains("invalid type: integer `3`, expected a sequence"), "{}", e(r#""kernels": 3"#));
        assert!(e(r#""mode": null"#).contains("invalid type: null, expected a string"));
        assert!(e(r#""word_bytes": 256"#).contains("invalid value: integer `256`, expected u8"));
        assert!(e(r#""kernels": [{"name": "k", "launches": 1}]"#).contains("missing field `counters`"));
        assert!(e(r#""kernels": [{"name": "k", "launches": 1, "counters": {"time_s": "x"}}]"#).contains("invalid type: string \"x\", expected f64"));
        assert!(e(r#""custom_machine": {"id": "m"}"#).contains("missing field `name`"));
        assert!(e(r#""zoom": {"x": [1], "y": [1, 2]}"#).contains("invalid length 1, expected an array of length 2"));
        assert_eq!(read("[]").unwrap_err(), "it is not a JSON object");
    }

    #[test]
    fn the_document_is_the_marker_then_the_view() {
        let v = View { machine_id: "v100".into(), top_n: Some(3), ..View::default() };
        let text = to_json(&v);
        assert!(text.starts_with("{\n  \"roofline_view\": \"v1\",\n  \"machine_id\": \"v100\",\n  \"custom_machine\": null,\n  \"mode\": \"classic\","), "{text}");
        assert!(text.ends_with("  \"word_bytes\": 8,\n  \"kernels\": []\n}\n"), "{text}");
    }
}
