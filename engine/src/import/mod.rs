//! Importers: one module per profiler format, all behind [`Importer`].
//!
//! Detection is by content, never by file name: each importer looks at the text and says
//! whether it is its format. [`detect`] asks them in order of specificity (a format whose
//! signature is a subset of another's comes after it). `docs/FORMATS.md` lists every format,
//! how it is detected and the profiler command lines that produce it.

pub mod advisor;
pub mod binary;
pub mod chunks;
pub mod device_list;
pub mod ert;
pub mod hints;
pub mod json;
pub mod machine;
pub mod ncu;
pub mod ncu_devices;
pub mod ncu_metrics;
pub mod ncu_log;
pub mod ncu_raw;
#[cfg(feature = "ncu-rep")]
pub mod ncu_rep;
pub mod ncu_text;
pub mod nvprof;
pub mod records;
pub mod rocprof;
#[cfg(feature = "rocpd")]
pub mod rocpd;
pub mod sink;
pub mod stream;
pub mod table;
pub mod tidy;
pub mod view_file;

use crate::domain::{Device, SourceFile};
pub use crate::domain::Transfer;
use crate::error::ImportError;
use crate::model::Machine;
use crate::domain::profile::Launch;

/// What one file held: kernel launches, host↔device transfers, and/or a machine description.
/// Serde: the web app's SQLite worker posts what it read of a database to the parser worker.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Imported {
    pub launches: Vec<Launch>,
    pub transfers: Vec<Transfer>,
    pub machine: Option<Machine>,
    /// Other machines the file describes besides [`Imported::machine`], for the user to pick
    /// instead (Intel Advisor's single-threaded roofs beside its all-core ones).
    pub alternatives: Vec<Machine>,
    /// The devices the file describes, indexed by [`Launch::device`].
    pub devices: Vec<Device>,
    /// What the file holds that the reader could not use, worth telling the user.
    pub warnings: Vec<ImportError>,
}


/// A profiler format.
pub trait Importer: Sync {
    /// Stable identifier, printed as `format` in the CLI's JSON (public contract).
    fn format(&self) -> &'static str;
    /// Whether `text` (the decoded file) is in this format.
    fn detect(&self, text: &str) -> bool;
    /// Reads the file. Errors name the file and the line.
    fn import(&self, file_name: &str, text: &str) -> Result<Imported, ImportError>;
    /// A reader fed the file in chunks ([`stream`]), for formats whose records are lines and
    /// hold launches only (the Nsight Compute pages); `None` (the default) for formats read
    /// whole with [`Importer::import`]. Both must give the same launches.
    fn stream(&self, _file_name: &str) -> Option<Box<dyn stream::RecordParser>> {
        None
    }
}

/// Every importer, most specific first.
pub fn importers() -> &'static [&'static dyn Importer] {
    &[
        &view_file::RooflineView,
        // An HTML page (its first bytes open a tag) holding Advisor's chart data: no CSV
        // reader's header can be its first line, and it is told apart in two searches.
        #[cfg(feature = "json")]
        &advisor::html::AdvisorHtml,
        &ncu::NsightComputeLong,
        &ncu_raw::NsightComputeRaw,
        &nvprof::metrics::NvprofMetrics,
        &nvprof::trace::NvprofTrace,
        &nvprof::summary::NvprofSummary,
        &nvprof::text::NvprofTextMetrics,
        &nvprof::text::NvprofTextSummary,
        &ncu_text::NsightComputeText,
        &rocprof::v3::RocprofV3Counters,
        &rocprof::agent_info::RocprofV3AgentInfo,
        &rocprof::stats::RocprofStats,
        &rocprof::compute::RocprofComputeRoofline,
        &rocprof::compute::RocprofComputeSysinfo,
        &rocprof::dispatch::RocprofDispatches,
        &advisor::survey::AdvisorSurvey,
        &advisor::roofs::AdvisorRoofs,
        &ert::ErtJson,
        &ert::ErtSum,
        &tidy::Tidy,
        // Last: a log with no table at all (the profiled application failed).
        &ncu_log::NsightComputeLog,
    ]
}

/// `importer`'s reading of a parsed JSON document, for the formats that are JSON (`None` for
/// the others, which read text). See `DatasetBuilder::add_json_file`.
pub fn read_json_document(importer: &dyn Importer, file_name: &str, doc: &impl json::JsonDocument) -> Option<Result<Imported, ImportError>> {
    match importer.format() {
        "roofline-view" => Some(view_file::import_document(file_name, doc)),
        "ert-json" => Some(ert::import_document(file_name, doc)),
        _ => None,
    }
}

/// The importer whose format `text` is in.
pub fn detect(text: &str) -> Option<&'static dyn Importer> {
    table::with_lines_split(text, || importers().iter().copied().find(|imp| imp.detect(text)))
}

/// Decodes a file's bytes to text: UTF-8 with or without BOM. Other encodings get a clear error.
pub fn decode(file: &SourceFile) -> Result<&str, ImportError> {
    let bytes = file.bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&file.bytes);
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(ImportError::new(
            &file.name,
            None,
            "the file is UTF-16 text; save it as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`)",
        ));
    }
    chunks::utf8(&file.name, bytes, 1)
}

/// Parses a number as profilers print it: thousands separators (`4,963,609,951.19`),
/// surrounding spaces. `None` for empty cells and anything that is not a finite number.
pub fn parse_number(cell: &str) -> Option<f64> {
    if let Some(v) = plain_integer(cell) {
        return Some(v);
    }
    let t = cell.trim();
    if t.is_empty() {
        return None;
    }
    // Allocates only for a number with thousands separators.
    let v: f64 = if t.as_bytes().contains(&b',') { t.replace(',', "").parse().ok()? } else { t.parse().ok()? };
    v.is_finite().then_some(v)
}

/// A cell of 1 to 15 ASCII digits and nothing else, the value `str::parse::<f64>` gives it
/// (every such integer is exact in an `f64`), without the general parser: most cells of a
/// raw page are counts (this took 2.6 % off reading one, docs/PERFORMANCE.md).
fn plain_integer(cell: &str) -> Option<f64> {
    let digits = cell.as_bytes();
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    let mut n: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(d - b'0');
    }
    Some(n as f64)
}

/// Splits a value with a unit glued to it (`975.74MB/s`, `5.2583ms`, `44.47%`, `28.970s`)
/// into the number and the unit text. `None` when the cell does not start with a number.
pub fn split_unit(cell: &str) -> Option<(f64, &str)> {
    let t = cell.trim();
    let end = t
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || c == ','
                || ((c == '-' || c == '+') && (i == 0 || matches!(t.as_bytes().get(i - 1), Some(b'e' | b'E'))))
                || ((c == 'e' || c == 'E') && i > 0 && t[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '-' || d == '+')))
        })
        .map_or(t.len(), |(i, _)| i);
    let v = parse_number(&t[..end])?;
    Some((v, t[end..].trim()))
}

/// Seconds per unit of a time written by nvprof, rocprof or Advisor (`s`, `ms`, `us`, `µs`, `ns`).
pub fn time_unit_s(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "s" | "sec" | "second" => 1.0,
        "ms" | "msecond" => 1e-3,
        "us" | "µs" | "μs" | "usecond" => 1e-6,
        "ns" | "nsecond" => 1e-9,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_with_thousands_separators() {
        assert_eq!(parse_number("4,963,609,951.19"), Some(4_963_609_951.19));
        assert_eq!(parse_number(" 12 "), Some(12.0));
        assert_eq!(parse_number("1.5e3"), Some(1500.0));
        assert_eq!(parse_number(""), None);
        assert_eq!(parse_number("n/a"), None);
        assert_eq!(parse_number("inf"), None);
    }

    proptest::proptest! {
        /// The integer shortcut gives what the general parser gives, bit for bit: up to 15
        /// digits, leading zeros, and the 16-digit and longer cells it leaves to the parser.
        #[test]
        fn integers_read_as_the_parser_reads_them(digits in "[0-9]{1,20}") {
            let want: f64 = digits.parse().map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}")))?;
            proptest::prop_assert_eq!(parse_number(&digits).map(f64::to_bits), Some(want.to_bits()));
        }
    }

    #[test]
    fn values_with_glued_units() {
        assert_eq!(split_unit("975.74MB/s"), Some((975.74, "MB/s")));
        assert_eq!(split_unit("5.2583ms"), Some((5.2583, "ms")));
        assert_eq!(split_unit("44.47%"), Some((44.47, "%")));
        assert_eq!(split_unit("8.1097E+14"), Some((8.1097e14, "")));
        assert_eq!(split_unit("735ns"), Some((735.0, "ns")));
        assert_eq!(split_unit("Low (1)"), None);
    }

    #[test]
    fn utf16_is_refused_with_a_reason() {
        let f = SourceFile { name: "a.csv".into(), bytes: vec![0xFF, 0xFE, b'a', 0] };
        let e = decode(&f).unwrap_err();
        assert!(e.to_string().contains("UTF-16"), "{e}");
        let f = SourceFile { name: "b.csv".into(), bytes: b"\xEF\xBB\xBFx,y".to_vec() };
        assert_eq!(decode(&f).unwrap(), "x,y");
    }
}
