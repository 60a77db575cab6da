//! JSON documents for the importers that read JSON (`.roofline.json` views, ERT's
//! `roofline.json`) and for `share::file`, whatever parsed them.
//!
//! Why a trait: the engine stays platform-free and the web app's wasm carries no JSON parser.
//! Natively (the `json` feature, on by default) a document is its text read by serde_json
//! ([`JsonText`]); in the app it is the browser's `JSON.parse` result read by
//! serde-wasm-bindgen (the app's `BrowserJson`, handed to `DatasetBuilder::add_json_file`).
//! The importers only see typed documents (serde `Deserialize` structs), so both paths apply
//! the same rules.

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Deserialize;

/// A parsed JSON document, readable as any serde type (each read starts from the document's
/// root; reading twice, e.g. a version marker and then the body, is cheap).
pub trait JsonDocument {
    /// The document as a `T`.
    fn read<T: DeserializeOwned>(&self) -> Result<T, JsonError>;
}

/// Why a document could not be read as the type asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    /// The text is not JSON at all (`false`: JSON, but not of the expected shape).
    pub syntax: bool,
    /// 1-based line of the error, when the parser says.
    pub line: Option<usize>,
    /// The parser's message (serde_json's includes "at line L column C").
    pub message: String,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// JSON text, read with serde_json (the `json` feature; without it every read says that
/// the host must parse JSON itself: see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct JsonText<'a>(pub &'a str);

impl JsonDocument for JsonText<'_> {
    #[cfg(feature = "json")]
    fn read<T: DeserializeOwned>(&self) -> Result<T, JsonError> {
        use serde_json::error::Category;
        serde_json::from_str(self.0).map_err(|e| JsonError {
            syntax: matches!(e.classify(), Category::Syntax | Category::Eof),
            line: (e.line() > 0).then_some(e.line()),
            message: e.to_string(),
        })
    }

    #[cfg(not(feature = "json"))]
    fn read<T: DeserializeOwned>(&self) -> Result<T, JsonError> {
        Err(JsonError {
            syntax: false,
            line: None,
            message: "this build reads JSON files through its host's parser (DatasetBuilder::add_json_file)".into(),
        })
    }
}

/// A value read leniently: `Value` when it has the expected shape, `Other` (skipped) when
/// not, for fields whose shape varies between files (ERT's metadata) where one odd value
/// must not refuse a file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Loose<T> {
    Value(T),
    Other(IgnoredAny),
}

impl<T> Loose<T> {
    pub fn value(&self) -> Option<&T> {
        match self {
            Loose::Value(v) => Some(v),
            Loose::Other(_) => None,
        }
    }
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Doc {
        n: u32,
        tags: Vec<Loose<String>>,
    }

    #[test]
    fn syntax_and_shape_errors_are_told_apart_with_the_line() {
        let ok: Doc = JsonText("{\"n\": 3, \"tags\": [\"a\", 5, [\"b\"], \"c\"]}").read().unwrap();
        let tags: Vec<Option<&str>> = ok.tags.iter().map(|t| t.value().map(String::as_str)).collect();
        assert_eq!((ok.n, tags), (3, vec![Some("a"), None, None, Some("c")]), "odd items are skipped, not refused");
        let e = JsonText("{\n\"n\": 3,\n\"tags\": [}").read::<Doc>().unwrap_err();
        assert_eq!((e.syntax, e.line), (true, Some(3)));
        assert_eq!(e.message, "expected value at line 3 column 10");
        let e = JsonText("{\"n\": -1, \"tags\": []}").read::<Doc>().unwrap_err();
        assert_eq!((e.syntax, e.line), (false, Some(1)));
        assert!(e.message.starts_with("invalid value: integer `-1`, expected u32"), "{}", e.message);
        assert!(JsonText("{\"n\": 1").read::<Doc>().unwrap_err().syntax, "a cut file is a syntax error");
    }
}
