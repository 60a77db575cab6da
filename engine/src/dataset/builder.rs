//! [`DatasetBuilder`]: a dataset built from files given whole or in chunks.
//!
//! ARCHITECTURE: the app's parser worker reads a dropped file in 4 MiB slices and the CLI with buffered
//! `read`s; both hand the builder one chunk at a time, of any size, and never hold the file:
//!
//! ```text
//! let mut b = DatasetBuilder::new();
//! for chunk in file_a { b.push_chunk("a.csv", &chunk)?; }   // as chunks arrive
//! b.end_file()?;                                             // or a chunk of the next file
//! b.add_file(&SourceFile { name, bytes })?;                  // a file already in memory
//! let dataset = b.finish()?;
//! ```
//!
//! The first bytes of a file are kept until its format is known: the Nsight Compute header
//! is found (usually in the first chunk), or [`DETECT_LINES`] lines or the end went by
//! without one. A format with a streaming reader ([`Importer::stream`]: the Nsight Compute
//! details and raw pages) is then read chunk by chunk and its launches summed per kernel as
//! they arrive ([`KernelTotals`]), so memory does not grow with the file. Other formats are
//! small by nature (summaries, JSON) and are kept whole and read at the end of the file, as
//! [`super::load_dataset`] does. Either way the dataset is the one `load_dataset` makes of
//! the same files (tests/streaming.rs), except that per-launch detail is capped
//! ([`super::MAX_KEPT_LAUNCHES`]). After an error the builder should be dropped.
//!
//! Keeping going ([`DatasetBuilder::keep_going`], the app's parser worker: issue 41): a file
//! that cannot be read (not a profiler format, corrupt, failing mid-way, in whichever parser
//! read it) is taken back whole and its error recorded ([`DatasetBuilder::failed`]); the
//! dataset is the one the other files make (to the bit: `engine/tests/keep_going.rs`), its
//! warnings led by one naming each file left out and why. Only a list of which no file could
//! be read fails. Taking a file back: its kept launch records removed, the earlier files'
//! records it joined given their counters back ([`LaunchJoin::roll_back`]); everything else a
//! file adds is added once its last byte is read.

use super::devices::FileDevices;
use super::file_read::FileRead;
use super::part::{self, PartRead};
use super::reading::Reading;
use super::same_run::{self, SameRun};
use super::totals::KernelTotals;
use super::{merge_kernel, roofline_requirements, Dataset, FileInfo, LaunchJoin, SourceFile};
use crate::domain::{Counter, Device};
use crate::error::ImportError;
use crate::import::binary;
use crate::import::stream::{read_whole, LaunchRef, LaunchSink};
use crate::import::json::JsonDocument;
use crate::import::{self, Imported, Importer};
use std::collections::HashMap;

/// Builds a [`Dataset`] file by file (see the module doc).
#[derive(Default)]
pub struct DatasetBuilder {
    ds: Dataset,
    kernel_index: HashMap<String, usize>,
    join: LaunchJoin,
    open: Option<OpenFile>,
    /// Time-only files (GPU summaries and traces), to count one run's two timings once.
    same_run: SameRun,
    /// The errors of the files left out, where the builder keeps going past them
    /// ([`DatasetBuilder::keep_going`]); `None`: the first error fails the build.
    failed: Option<Vec<ImportError>>,
    /// A file that failed while its chunks were pushed: the rest of them are ignored.
    skipping: Option<String>,
    /// What the dataset held when the file being read began (to take it back).
    mark: Mark,
}

/// The lengths of what a file adds to as it is read, when it began.
#[derive(Clone, Copy, Default)]
struct Mark {
    launches: usize,
    omitted: u64,
    files: usize,
    warnings: usize,
    transfers: usize,
}

/// The file being pushed: how far it is read, and what its launches added up to so far.
struct OpenFile {
    name: String,
    reading: Reading,
    totals: KernelTotals,
    devices: FileDevices,
    /// The warning for a file cut in the middle of a row, from a part read elsewhere
    /// ([`DatasetBuilder::take_part`]).
    tail: Option<ImportError>,
}

/// Where a streamed file's launches go: its kernel totals and the dataset's launches.
struct FileSink<'a> {
    totals: &'a mut KernelTotals,
    devices: &'a mut FileDevices,
    ds: &'a mut Dataset,
    join: &'a mut LaunchJoin,
}

impl LaunchSink for FileSink<'_> {
    fn launch(&mut self, l: LaunchRef<'_>) {
        self.totals.add(l.kernel, l.count, l.counters);
        self.devices.add(&l);
        self.join.add(&mut self.ds.launches, &mut self.ds.launches_omitted, l);
    }
}

impl DatasetBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder that keeps going past a file that cannot be read (see the module doc): the
    /// file is left out, its error listed in [`DatasetBuilder::failed`] and, at
    /// [`DatasetBuilder::finish`], a warning; every method then returns `Ok` for a file's
    /// error, and `finish` fails only where no file could be read.
    pub fn keep_going() -> Self {
        DatasetBuilder { failed: Some(Vec::new()), ..Self::default() }
    }

    /// The errors of the files left out so far, in the order they were given (keep-going
    /// mode; empty otherwise).
    pub fn failed(&self) -> &[ImportError] {
        self.failed.as_deref().unwrap_or_default()
    }

    /// Whether the file `file_name`, being pushed, has failed (keep-going mode): its further
    /// chunks are ignored, so the caller may stop reading it.
    pub fn has_failed(&self, file_name: &str) -> bool {
        self.skipping.as_deref() == Some(file_name)
    }

    /// A file that cannot be read for a reason outside the builder (too large, the browser
    /// could not read it): in keep-going mode what it added so far is taken back and `error`
    /// listed, `Ok`; otherwise `Err(error)`. The file's further chunks are ignored until it
    /// ends.
    pub fn fail_file(&mut self, error: ImportError) -> Result<(), ImportError> {
        if self.open.is_none() {
            self.begin();
        }
        self.file_error(Err(error))
    }

    /// Notes where the file being read begins, to take it back should it fail (keep-going).
    fn begin(&mut self) {
        if self.failed.is_some() {
            let ds = &self.ds;
            self.mark = Mark { launches: ds.launches.len(), omitted: ds.launches_omitted, files: ds.files.len(), warnings: ds.warnings.len(), transfers: ds.transfers.len() };
            self.join.begin(ds.launches.len());
        }
    }

    /// A file's `result`. In keep-going mode an error takes the file back (everything it
    /// added since [`Self::begin`]), is listed, and becomes `Ok`; the file's further chunks are
    /// ignored. Otherwise the error is returned.
    fn file_error(&mut self, result: Result<(), ImportError>) -> Result<(), ImportError> {
        let Err(e) = result else { return Ok(()) };
        let Some(failed) = self.failed.as_mut() else { return Err(e) };
        failed.push(e);
        let m = self.mark;
        self.join.roll_back(&mut self.ds.launches, m.launches);
        self.ds.launches_omitted = m.omitted;
        self.ds.files.truncate(m.files);
        self.ds.warnings.truncate(m.warnings);
        self.ds.transfers.truncate(m.transfers);
        if let Some(f) = self.open.take() {
            self.skipping = Some(f.name);
        }
        Ok(())
    }

    /// Adds the next `chunk` of the file `file_name` (chunks in order, of any size, empty
    /// ones too: push an empty chunk to open an empty file). A chunk of another file ends
    /// the current one first, as [`DatasetBuilder::end_file`].
    pub fn push_chunk(&mut self, file_name: &str, chunk: &[u8]) -> Result<(), ImportError> {
        if self.open.as_ref().is_some_and(|f| f.name != file_name) {
            self.end_file()?;
        }
        if let Some(skipping) = self.skipping.take() {
            if skipping == file_name {
                self.skipping = Some(skipping);
                return Ok(());
            }
        }
        if self.open.is_none() {
            self.begin();
        }
        let mut file = self.open.take().unwrap_or_else(|| OpenFile {
            name: file_name.to_string(),
            reading: Reading::default(),
            totals: KernelTotals::default(),
            devices: FileDevices::default(),
            tail: None,
        });
        let result = self.push_to(&mut file, chunk, false);
        self.open = Some(file);
        self.file_error(result)
    }

    /// Ends the file being pushed: reads what remains and adds its kernels to the dataset.
    pub fn end_file(&mut self) -> Result<(), ImportError> {
        self.skipping = None;
        let result = self.end_open();
        self.file_error(result)
    }

    fn end_open(&mut self) -> Result<(), ImportError> {
        let Some(mut file) = self.open.take() else { return Ok(()) };
        self.push_to(&mut file, &[], true)?;
        let OpenFile { name, reading, mut totals, mut devices, tail } = file;
        let mut sink = FileSink { totals: &mut totals, devices: &mut devices, ds: &mut self.ds, join: &mut self.join };
        match reading {
            Reading::Head { .. } => Ok(()), // push_to with eof always decides
            Reading::Whole { bytes } => self.add_whole(&SourceFile { name, bytes }),
            Reading::Streaming { importer, mut parser, mut feeder } => {
                let cut = feeder.finish(&name, parser.as_mut(), &mut sink)?;
                self.end_streamed(&name, importer.format(), totals);
                self.ds.devices.add_file(&parser.devices(), devices);
                self.ds.warnings.extend(parser.warnings());
                self.ds.warnings.extend(cut.or(tail)); // as add_file's limits::truncated_row
                Ok(())
            }
            Reading::Binary { importer, mut parser } => {
                let warnings = parser.finish(&mut sink)?;
                self.end_streamed(&name, importer.format(), totals);
                self.ds.devices.add_file(&parser.devices(), devices);
                if let Some(f) = self.ds.files.last_mut() {
                    f.tool = parser.tool();
                }
                self.ds.warnings.extend(warnings);
                Ok(())
            }
        }
    }

    /// Takes over `part`, the rest of the file being pushed, read by another parser
    /// ([`super::part`]), after the file's bytes up to `part.start` (exactly) were pushed
    /// here. `Ok(false)`: it cannot be taken (the bytes pushed do not end on a record's end,
    /// which happens when the line end the part starts after is inside a quoted field; or the
    /// part read another format): push the rest of the file instead. `Err`: the part's first
    /// error, its line the file's. After `Ok(true)` the file's end is the part's: push
    /// nothing more of it. In keep-going mode the error leaves the file out, and is `Ok(true)`.
    pub fn take_part(&mut self, file_name: &str, part: &PartRead) -> Result<bool, ImportError> {
        match self.take_part_read(file_name, part) {
            Ok(taken) => Ok(taken),
            Err(e) => self.file_error(Err(e)).map(|()| true),
        }
    }

    fn take_part_read(&mut self, file_name: &str, part: &PartRead) -> Result<bool, ImportError> {
        let Some(file) = self.open.as_mut().filter(|f| f.name == file_name) else { return Ok(false) };
        let OpenFile { reading: Reading::Streaming { importer, parser, feeder }, totals, devices, tail, .. } = file else { return Ok(false) };
        if importer.format() != part.format || part.start.is_none() || !feeder.at_record_start() {
            return Ok(false);
        }
        let Some(shift) = parser.line().checked_sub(part.first_line) else { return Ok(false) };
        let Some(remap) = parser.absorb(&part.state) else { return Ok(false) };
        let mut sink = FileSink { totals, devices, ds: &mut self.ds, join: &mut self.join };
        part::replay(&file.name, &part.names, &part.launches, Some(&remap), &mut sink)?;
        if let Some(e) = &part.error {
            return Err(part::shifted(e.clone(), shift));
        }
        *tail = part.tail.clone().map(|w| part::shifted(w, shift));
        Ok(true)
    }

    /// Adds a file held in memory (what [`super::load_dataset`] does for each file). A JSON
    /// format is read with serde_json (the `json` feature); a build without it (the web app)
    /// gives JSON files to [`DatasetBuilder::add_json_file`] instead.
    pub fn add_file(&mut self, file: &SourceFile) -> Result<(), ImportError> {
        self.end_file()?;
        self.begin();
        let result = self.add_whole(file);
        self.file_error(result)
    }

    fn add_whole(&mut self, file: &SourceFile) -> Result<(), ImportError> {
        if binary::detect(&file.bytes).is_some() {
            // Read from the bytes, as pushed chunks are: the same path.
            // The file was begun by the caller: no `begin` here, nor errors caught.
            let mut open = OpenFile { name: file.name.clone(), reading: Reading::default(), totals: KernelTotals::default(), devices: FileDevices::default(), tail: None };
            self.push_to(&mut open, &file.bytes, false)?;
            self.open = Some(open);
            return self.end_open();
        }
        let text = import::decode(file)?;
        let importer = import::detect(text).ok_or_else(|| import::hints::unrecognised(&file.name, text))?;
        self.add_text(&file.name, text, importer, None::<&import::json::JsonText>)
    }

    /// Adds a file held in memory whose text the host has parsed as JSON (`doc`: the web app's
    /// `JSON.parse` result, read through serde-wasm-bindgen). Detection is by content, as for
    /// [`DatasetBuilder::add_file`]: if the text is a JSON format (a `.roofline.json` view,
    /// ERT's `roofline.json`) the importer reads `doc`, otherwise the text is read as usual
    /// and `doc` is not looked at (so a lazy `doc` never parses a CSV).
    pub fn add_json_file(&mut self, file: &SourceFile, doc: &impl JsonDocument) -> Result<(), ImportError> {
        self.end_file()?;
        self.begin();
        let result = self.add_json(file, doc);
        self.file_error(result)
    }

    fn add_json(&mut self, file: &SourceFile, doc: &impl JsonDocument) -> Result<(), ImportError> {
        let text = import::decode(file)?;
        let importer = import::detect(text).ok_or_else(|| import::hints::unrecognised(&file.name, text))?;
        self.add_text(&file.name, text, importer, Some(doc))
    }

    /// Reads `text`, detected as `importer`'s format: from `doc` if given and the format is
    /// JSON, streamed if the importer streams, else whole.
    fn add_text(&mut self, name: &str, text: &str, importer: &'static dyn Importer, doc: Option<&impl JsonDocument>) -> Result<(), ImportError> {
        let from_document = doc.and_then(|d| import::read_json_document(importer, name, d));
        if let Some(imported) = from_document {
            self.add_imported(name, importer, imported?);
        } else if let Some(mut parser) = importer.stream(name) {
            let mut totals = KernelTotals::default();
            let mut devices = FileDevices::default();
            let mut sink = FileSink { totals: &mut totals, devices: &mut devices, ds: &mut self.ds, join: &mut self.join };
            read_whole(parser.as_mut(), text, &mut sink)?;
            self.end_streamed(name, importer.format(), totals);
            self.ds.devices.add_file(&parser.devices(), devices);
            self.ds.warnings.extend(parser.warnings());
        } else {
            let imported = importer.import(name, text)?;
            self.add_imported(name, importer, imported);
        }
        self.ds.warnings.extend(crate::limits::truncated_row(name, text));
        Ok(())
    }

    /// Adds a whole file read by another parser ([`super::file_read`]: the app's second
    /// parser reads some of a list's files while the first reads the others): the same
    /// kernels, launches, devices, tool, warnings and error as pushing the file's bytes here.
    /// Files are added in the list's order, whoever read them, so every sum is added in the
    /// order one parser adds it.
    pub fn add_read(&mut self, name: &str, read: &FileRead) -> Result<(), ImportError> {
        self.end_file()?;
        self.begin();
        let result = self.add_read_here(name, read);
        self.file_error(result)
    }

    fn add_read_here(&mut self, name: &str, read: &FileRead) -> Result<(), ImportError> {
        if let Some(e) = &read.error {
            return Err(e.clone());
        }
        let format = import::importers().iter().map(|i| i.format()).chain(binary::binary_importers().iter().map(|i| i.format())).find(|f| *f == read.format);
        let format = format.ok_or_else(|| ImportError::new(name, None, format!("the second reader read an unknown format {:?} (an internal error; reload the page)", read.format)))?;
        let mut totals = KernelTotals::default();
        let mut devices = FileDevices::default();
        let mut sink = FileSink { totals: &mut totals, devices: &mut devices, ds: &mut self.ds, join: &mut self.join };
        part::replay(name, &read.names, &read.launches, None, &mut sink)?;
        self.end_streamed(name, format, totals);
        self.ds.devices.add_file(&read.devices, devices);
        if let Some(f) = self.ds.files.last_mut() {
            f.tool.clone_from(&read.tool);
        }
        self.ds.warnings.extend(read.warnings.iter().cloned());
        Ok(())
    }

    /// The dataset of every file added (the file being pushed is ended first), with the
    /// warning of what it lacks for a roofline, if anything. In keep-going mode the warnings
    /// start with one per file left out ([`Self::left_out`]), and where no file could be read (or
    /// those read hold neither kernels nor a machine) the error names every file and why.
    pub fn finish(mut self) -> Result<Dataset, ImportError> {
        self.end_file()?;
        let mut ds = self.ds;
        if let Some(mut failed) = self.failed.filter(|f| !f.is_empty()) {
            if ds.kernels.is_empty() && ds.machine.is_none() {
                if !ds.files.is_empty() {
                    let names = ds.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ");
                    failed.push(ImportError::new(&names, None, "no kernels found"));
                }
                return Err(nothing_read(failed));
            }
            ds.warnings.splice(0..0, failed.iter().map(Self::left_out));
        }
        super::fill_joined_cycle_times(&mut ds);
        let names = ds.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ");
        ds.warnings.extend(crate::limits::drop_unusable_times(&names, &mut ds.kernels));
        if !ds.kernels.is_empty() {
            if let Err(w) = roofline_requirements(&ds) {
                ds.warnings.push(w);
            }
            ds.warnings.extend(super::uncollected_flops(&ds));
        }
        Ok(ds)
    }

    /// The warning for a file left out: its error, said as such ("Left out x.csv, which could
    /// not be read: …", with the line and the hint the error had).
    pub fn left_out(e: &ImportError) -> ImportError {
        let mut w = e.clone();
        w.message = format!("left out {}, which could not be read: {}", e.file, e.message);
        w
    }

    /// Feeds `chunk` to the open file in whatever state it is; `eof` after its last chunk.
    fn push_to(&mut self, file: &mut OpenFile, chunk: &[u8], eof: bool) -> Result<(), ImportError> {
        let mut sink = FileSink { totals: &mut file.totals, devices: &mut file.devices, ds: &mut self.ds, join: &mut self.join };
        file.reading.push(&file.name, chunk, eof, &mut sink)
    }

    /// Adds a streamed file's kernel totals.
    fn end_streamed(&mut self, name: &str, format: &'static str, totals: KernelTotals) {
        self.ds.files.push(FileInfo { path: name.to_string(), format, tool: None });
        for k in totals.into_kernels() {
            merge_kernel(&mut self.ds.kernels, &mut self.kernel_index, k);
        }
    }

    /// Adds what a whole-file importer read. A time-only table (GPU summary or trace) of a
    /// run whose other timing is already in counts once ([`super::same_run`]).
    fn add_imported(&mut self, name: &str, importer: &dyn Importer, imported: Imported) {
        let timing = same_run::timing_kind(importer.format(), &imported.launches);
        let kernel_times = timing.map(|_| same_run::kernel_times(&imported.launches)).unwrap_or_default();
        let mut replacing = None;
        if let Some(per_launch) = timing {
            match self.same_run.judge(name, importer.format(), per_launch, &kernel_times) {
                same_run::Verdict::NewRun => {}
                same_run::Verdict::Skip(warning) => {
                    self.ds.files.push(FileInfo { path: name.to_string(), format: importer.format(), tool: None });
                    self.ds.warnings.push(warning);
                    self.ds.warnings.extend(imported.warnings);
                    return;
                }
                same_run::Verdict::Replace(i, warning) => {
                    self.take_back(i);
                    self.ds.warnings.push(warning);
                    replacing = Some(i);
                }
            }
        }
        let (launches_from, omitted_from, transfers_from) = (self.ds.launches.len(), self.ds.launches_omitted, self.ds.transfers.len());
        let mut totals = KernelTotals::default();
        let mut devices = FileDevices::default();
        for l in &imported.launches {
            let r = LaunchRef { id: l.id, kernel: &l.kernel, count: l.count, counters: &l.counters, device: l.device };
            totals.add(r.kernel, r.count, r.counters);
            devices.add(&r);
            self.join.add(&mut self.ds.launches, &mut self.ds.launches_omitted, r);
        }
        match replacing.and_then(|i| self.same_run.files.get(i)) {
            // The kernels are the replaced file's: their times change, nothing else.
            Some(old) => {
                self.ds.files.push(FileInfo { path: name.to_string(), format: importer.format(), tool: None });
                for k in totals.into_kernels() {
                    let Some(have) = self.kernel_index.get(&k.name).and_then(|&i| self.ds.kernels.get_mut(i)) else { continue };
                    let old_s = old.kernels.iter().find(|o| o.name == k.name).map_or(0.0, |o| o.time_s);
                    let rest_s = have.counters.get(Counter::TimeS).unwrap_or(0.0) - old_s;
                    let new_s = k.counters.get(Counter::TimeS).unwrap_or(0.0);
                    // Exactly the trace's time where the summary was the only time.
                    have.counters.set(Counter::TimeS, if rest_s.abs() <= old_s * 1e-12 { new_s } else { rest_s + new_s });
                }
            }
            None => self.end_streamed(name, importer.format(), totals),
        }
        if timing.is_some() {
            let mut file_devices: Vec<(Device, f64, u64)> = Vec::new();
            for l in &imported.launches {
                let Some(d) = l.device.and_then(|i| imported.devices.get(usize::from(i))) else { continue };
                let t = l.counters.get(Counter::TimeS).unwrap_or(0.0) * l.count as f64;
                match file_devices.iter_mut().find(|(fd, _, _)| fd == d) {
                    Some(e) => {
                        e.1 += t;
                        e.2 = e.2.saturating_add(l.count);
                    }
                    None => file_devices.push((d.clone(), t, l.count)),
                }
            }
            self.same_run.files.push(same_run::TimedFile {
                path: name.to_string(),
                family: import::hints::family(importer.format()),
                per_launch: timing == Some(true),
                kernels: kernel_times,
                launches: launches_from..self.ds.launches.len(),
                omitted: self.ds.launches_omitted - omitted_from,
                transfers: transfers_from..transfers_from + imported.transfers.len(),
                devices: file_devices,
                replaced: false,
            });
        }
        self.ds.devices.add_file(&imported.devices, devices);
        self.ds.warnings.extend(imported.warnings);
        self.ds.transfers.extend(imported.transfers);
        for alt in imported.alternatives {
            match self.ds.machine_alternatives.iter_mut().find(|m| m.id == alt.id) {
                Some(existing) => import::machine::merge(existing, alt),
                None => self.ds.machine_alternatives.push(alt),
            }
        }
        if let Some(m) = imported.machine {
            match self.ds.machine.as_mut() {
                Some(existing) => import::machine::merge(existing, m),
                None => self.ds.machine = Some(m),
            }
        }
    }

    /// Takes back what time-only file `i` (a summary replaced by its run's trace) added:
    /// its launch records, transfers and device times. Its kernel times are replaced by the
    /// caller.
    fn take_back(&mut self, i: usize) {
        let Some(f) = self.same_run.files.get_mut(i) else { return };
        f.replaced = true;
        let (launches, transfers, omitted) = (f.launches.clone(), f.transfers.clone(), f.omitted);
        self.join.remove(&mut self.ds.launches, launches.clone());
        self.ds.launches_omitted = self.ds.launches_omitted.saturating_sub(omitted);
        if transfers.end <= self.ds.transfers.len() {
            self.ds.transfers.drain(transfers.clone());
        }
        for (d, time_s, count) in &f.devices {
            if let Some(run) = self.ds.devices.runs.iter_mut().find(|r| super::devices::same_device(&r.device, d)) {
                run.kernel_time_s = (run.kernel_time_s - time_s).max(0.0);
                run.launches = run.launches.saturating_sub(*count);
            }
        }
        // Records of later time-only files moved down.
        for g in &mut self.same_run.files {
            if g.launches.start >= launches.end {
                g.launches = g.launches.start - launches.len()..g.launches.end - launches.len();
            }
            if g.transfers.start >= transfers.end {
                g.transfers = g.transfers.start - transfers.len()..g.transfers.end - transfers.len();
            }
        }
    }
}

/// The error of a list of which nothing could be read: the one error, or every file's.
fn nothing_read(mut failed: Vec<ImportError>) -> ImportError {
    if failed.len() == 1 {
        if let Some(e) = failed.pop() {
            return e;
        }
    }
    let files = failed.iter().map(|e| e.file.as_str()).collect::<Vec<_>>().join(", ");
    let each = failed.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
    ImportError::new(&files, None, format!("none of these files could be read: {each}"))
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;
    use crate::import::json::{JsonError, JsonText};
    use std::cell::Cell;

    /// A host's parsed document: serde_json underneath, counting the reads.
    struct Counted<'a> {
        text: &'a str,
        reads: Cell<usize>,
    }

    impl JsonDocument for Counted<'_> {
        fn read<T: serde::de::DeserializeOwned>(&self) -> Result<T, JsonError> {
            self.reads.set(self.reads.get() + 1);
            JsonText(self.text).read()
        }
    }

    fn add(name: &str, text: &str) -> (Result<Dataset, ImportError>, usize) {
        let doc = Counted { text, reads: Cell::new(0) };
        let mut b = DatasetBuilder::new();
        let result = b.add_json_file(&SourceFile { name: name.into(), bytes: text.as_bytes().to_vec() }, &doc).and_then(|()| b.finish());
        (result, doc.reads.get())
    }

    #[test]
    fn json_formats_read_the_hosts_document_others_their_text() {
        // A view file: the marker, then the kernels (two reads); 3 launches, 6 s in all.
        let view = r#"{"roofline_view": "v1", "machine_id": "v100", "kernels": [{"name": "k", "launches": 3, "counters": {"time_s": 6.0}}]}"#;
        let (ds, reads) = add("v.roofline.json", view);
        let ds = ds.unwrap();
        assert_eq!((ds.files[0].format, reads), ("roofline-view", 2));
        assert_eq!((ds.kernels[0].launches, ds.kernels[0].counters.get(Counter::TimeS)), (3, Some(6.0)));
        // ERT: one read; 176.44 GB/s of L1 and 11.03 GFLOP/s (FP64, ERT's default precision).
        let ert = r#"{"empirical": {"gbytes": {"data": [["L1", 176.44], ["odd"], ["L4", 5]]}, "gflops": {"data": [["GFLOPs", 11.03]]}, "metadata": {"HOSTNAME": ["node7", []]}}}"#;
        let (ds, reads) = add("roofline.json", ert);
        let m = ds.unwrap().machine.unwrap();
        assert_eq!((reads, m.name.as_str(), m.memory.len(), m.memory[0].bytes_per_s, m.compute[0].flops_per_s), (1, "node7 (ERT)", 1, 176.44e9, 11.03e9));
        // CSV: the document is never read.
        let (ds, reads) = add("k.csv", "kernel,time_s\nk,2\n");
        assert_eq!((ds.unwrap().kernels.len(), reads), (1, 0));
        // A broken document names the file and the line.
        let (ds, _) = add("b.roofline.json", "{\"roofline_view\": \"v1\",\n\"kernels\": [}");
        let e = ds.unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("b.roofline.json", Some(2)));
    }
}
