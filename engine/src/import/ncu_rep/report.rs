//! Reading a report from chunks: optional zstd decompression ([`super::zstd`]), the framing
//! ([`super::container`]), then the messages: the string table and session pieces from
//! block headers, and each result decoded with `prost` and handed to a visitor with its
//! metric names resolved.

use super::container::{Container, Event, MAGIC};
use super::messages::{DeviceAttributes, ProfileResult};
use super::value::Metric;
use super::zstd::{self, Unzstd};
use crate::error::ImportError;
use prost::Message;

/// The container format version of every report seen (2019.5 to 2025.1).
pub const KNOWN_FORMAT_VERSION: u32 = 7;

/// One result as the visitor sees it.
pub struct ResultView<'a> {
    /// 0-based, in file order: the `ID` that `ncu --import report.ncu-rep --csv` prints.
    pub index: u64,
    /// File offset of the result message (of the decompressed report for `.ncu-repz`).
    pub at: u64,
    pub result: &'a ProfileResult,
    strings: &'a [String],
}

impl<'a> ResultView<'a> {
    /// The result's metrics with their names; an error for a name index outside the
    /// string table.
    pub fn metrics(&self) -> impl Iterator<Item = Result<Metric<'a>, String>> + 'a {
        let strings = self.strings;
        self.result.metrics.iter().map(move |m| {
            let id = m.name_id.unwrap_or(u32::MAX);
            match strings.get(id as usize) {
                Some(name) => Ok(Metric { name, result: m }),
                None => Err(format!("metric name #{id} is not in the report's string table of {} names", strings.len())),
            }
        })
    }

    /// The kernel name as the CSV pages print it: demangled, else the function name, else
    /// the mangled symbol.
    pub fn kernel_name(&self) -> &'a str {
        let r = self.result;
        [&r.demangled_name, &r.function_name, &r.mangled_name].into_iter().flatten().map(String::as_str).find(|s| !s.is_empty()).unwrap_or("")
    }
}

/// What the session pieces say, gathered as blocks arrive (most come after the first result).
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The container format version from the file header.
    pub format_version: Option<u32>,
    /// (tool, version) records: "Nsight Compute Target", "CUDA Version", …
    pub versions: Vec<(String, String)>,
    pub devices: Vec<DeviceAttributes>,
    pub command_line: Option<String>,
    pub creation_time_s: Option<u64>,
}

impl Session {
    /// The Nsight Compute version that wrote the report: "2025.1.0.0 (build 35237751)"
    /// (recorded from 2020.2 on).
    pub fn tool_version(&self) -> Option<&str> {
        self.versions.iter().find(|(p, _)| p.starts_with("Nsight Compute")).map(|(_, v)| v.trim_end_matches(" (public-release)"))
    }

    /// What the file says about its version, for messages: "Nsight Compute 2025.1.0.0
    /// (build 35237751), file format 7".
    pub fn describe(&self) -> String {
        let tool = self.tool_version().map_or_else(|| "Nsight Compute version not recorded (before 2020.2, or not read yet)".to_string(), |v| format!("Nsight Compute {v}"));
        match self.format_version {
            Some(f) => format!("{tool}, file format {f}"),
            None => tool,
        }
    }
}

/// Counts of what was read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub results: u64,
    /// Range, command-list and graph results, and graphs: present but not read.
    pub other_results: u64,
}

/// Whether the input is compressed; undecided until 4 bytes have arrived.
enum Input {
    Head(Vec<u8>),
    Plain,
    Zstd(Box<Unzstd>),
}

/// A report read from chunks (module doc).
pub struct ReportReader {
    file: String,
    input: Input,
    container: Container,
    strings: Vec<String>,
    session: Session,
    tally: Tally,
}

/// Whether `head` (the first bytes of a file) starts like a report or a zstd-compressed one.
pub fn looks_like_report(head: &[u8]) -> bool {
    head.starts_with(MAGIC) || head.starts_with(&zstd::MAGIC)
}

impl ReportReader {
    pub fn new(file: &str) -> Self {
        ReportReader {
            file: file.to_string(),
            input: Input::Head(Vec::new()),
            container: Container::new(file),
            strings: Vec::new(),
            session: Session::default(),
            tally: Tally::default(),
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// Reads the next `chunk` of the file; each complete result goes to `visit`.
    pub fn push(&mut self, chunk: &[u8], visit: &mut dyn FnMut(&ResultView<'_>) -> Result<(), ImportError>) -> Result<(), ImportError> {
        if let Input::Head(head) = &mut self.input {
            head.extend_from_slice(chunk);
            if head.len() < 4 {
                return Ok(());
            }
            let head = std::mem::take(head);
            self.input = if head.starts_with(&zstd::MAGIC) { Input::Zstd(Box::new(Unzstd::new(&self.file))) } else { Input::Plain };
            return self.push_decided(&head, visit);
        }
        self.push_decided(chunk, visit)
    }

    fn push_decided(&mut self, chunk: &[u8], visit: &mut dyn FnMut(&ResultView<'_>) -> Result<(), ImportError>) -> Result<(), ImportError> {
        let ReportReader { file, input, container, strings, session, tally } = self;
        let mut on = |e: Event<'_>| on_event(file, e, strings, session, tally, visit);
        match input {
            Input::Zstd(z) => z.push(chunk, &mut |bytes| container.push(bytes, &mut on)),
            _ => container.push(chunk, &mut on),
        }
    }

    /// Ends the file. Warnings for a report cut between results (what was read stands) and
    /// for a file format version this reader has not seen; an error when nothing usable was
    /// read (naming the version the file gives).
    pub fn finish(&mut self, visit: &mut dyn FnMut(&ResultView<'_>) -> Result<(), ImportError>) -> Result<Vec<ImportError>, ImportError> {
        if let Input::Head(head) = &mut self.input {
            let head = std::mem::take(head);
            if head.is_empty() {
                return Err(ImportError::new(&self.file, None, "the file is empty"));
            }
            self.input = Input::Plain;
            self.push_decided(&head, visit)?;
        }
        if let Input::Zstd(_) = self.input {
            let ReportReader { file, input, container, strings, session, tally } = self;
            let mut on = |e: Event<'_>| on_event(file, e, strings, session, tally, visit);
            if let Input::Zstd(z) = input {
                z.finish(&mut |bytes| container.push(bytes, &mut on))?;
            }
        }
        let cut = self.container.cut();
        if self.tally.results == 0 {
            let what = match (&cut, self.tally.other_results) {
                (Some(cut), _) => format!("{cut}, before any kernel result"),
                (None, 0) => "the report holds no kernel results (was any kernel profiled?)".to_string(),
                (None, n) => format!("the report holds no kernel results, only {n} range, command-list or graph results, which this reader does not read yet"),
            };
            return Err(ImportError::new(&self.file, None, format!("{what} ({})", self.session.describe())));
        }
        let cut = cut.map(|c| {
            ImportError::new(&self.file, None, format!("{c}: the report is incomplete; the {} kernel results before it were read ({})", self.tally.results, self.session.describe()))
        });
        // A container version never seen: what was read is kept, and the user told.
        let unknown = self.session.format_version.filter(|v| *v != KNOWN_FORMAT_VERSION).map(|v| {
            ImportError::new(
                &self.file,
                None,
                format!(
                    "the report's file format is version {v} ({}); this reader knows version {KNOWN_FORMAT_VERSION}: {} kernel results were read, check them against Nsight Compute",
                    self.session.describe(),
                    self.tally.results
                ),
            )
        });
        Ok(cut.into_iter().chain(unknown).collect())
    }
}

/// One framing event: session pieces and the string table are kept; results are decoded
/// and visited.
fn on_event(
    file: &str,
    e: Event<'_>,
    strings: &mut Vec<String>,
    session: &mut Session,
    tally: &mut Tally,
    visit: &mut dyn FnMut(&ResultView<'_>) -> Result<(), ImportError>,
) -> Result<(), ImportError> {
    match e {
        Event::FileHeader(h) => session.format_version = h.version,
        Event::Block(h) => {
            if let Some(table) = h.string_table.filter(|t| !t.strings.is_empty()) {
                // Later blocks name metrics by the most recent table (only the first block
                // with results carries one in the reports seen).
                *strings = table.strings;
            }
            tally.other_results += [h.num_range_results, h.num_cmdlist_results, h.num_graph_results, h.num_graphs]
                .into_iter()
                .map(|n| u64::from(n.unwrap_or(0)))
                .sum::<u64>();
            if let Some(s) = h.session {
                session.versions.extend(s.versions.into_iter().map(|v| (v.provider.unwrap_or_default(), v.version.unwrap_or_default())));
                session.devices.extend(s.devices);
                session.command_line = s.command_line.or(session.command_line.take());
                session.creation_time_s = s.creation_time_s.or(session.creation_time_s);
            }
        }
        Event::Result { bytes, at } => {
            let result = ProfileResult::decode(bytes).map_err(|err| {
                ImportError::new(
                    file,
                    None,
                    format!(
                        "at byte {at}: result {} is not a kernel result this reader understands ({err}); {} results were read before it ({})",
                        tally.results + 1,
                        tally.results,
                        session.describe()
                    ),
                )
            })?;
            let view = ResultView { index: tally.results, at, result: &result, strings };
            tally.results += 1;
            visit(&view)?;
        }
    }
    Ok(())
}

/// Reads a whole report held in memory, visiting each result; returns the session and the
/// warnings ([`ReportReader::finish`]).
pub fn read_all(file: &str, bytes: &[u8], visit: &mut dyn FnMut(&ResultView<'_>) -> Result<(), ImportError>) -> Result<(Session, Vec<ImportError>), ImportError> {
    let mut r = ReportReader::new(file);
    r.push(bytes, visit)?;
    let cut = r.finish(visit)?;
    Ok((r.session, cut))
}
