//! Nsight Compute CSV, raw ("wide") page: `ncu --csv --page raw`. One row per launch, one
//! column per metric (hundreds), and a units row under the header (`"","",…,"ns","byte",…`).
//! Metric names and units are translated by [`super::ncu`]'s map, so both pages agree.
//!
//! Read as a stream ([`super::stream`]): a column plan (column → counter, scale) is built
//! once from the header and units row; each row is then split into fields in a reused
//! buffer and only the planned cells are parsed, without allocating. Kernel names are
//! cleaned once per distinct name.

use super::records::{Fields, Reader};
use super::hints;
use super::ncu::{is_ncu_header, skip_to_header, FileState};
use super::ncu_metrics::{resolve, scale, Attr, LaunchMetrics, Resolved, Role};
use super::stream::{read_whole, Collect, LaunchSink, NameCache, PartState, RecordParser};
use super::table::{find_line, header_has, is_chatter_fields, Columns};
use super::{parse_number, Imported, Importer};
use crate::error::ImportError;

/// The raw page of `ncu --csv --page raw`.
pub struct NsightComputeRaw;

/// What one column contributes to a launch: a metric resolved once, and the factor from its
/// printed unit to the base unit (`None` for text columns: the device's name, `CC`).
#[derive(Clone, Copy)]
struct Plan {
    metric: Resolved,
    scale: Option<f64>,
}

impl Importer for NsightComputeRaw {
    fn format(&self) -> &'static str {
        "ncu-raw"
    }

    /// The file's first Nsight Compute header has no "Metric Name" column (that is the details page).
    fn detect(&self, text: &str) -> bool {
        find_line(text, is_ncu_header).is_some_and(|(_, _, l)| !header_has(l, "Metric Name"))
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let mut launches = Collect::default();
        let mut parser = RawParser::new(file);
        read_whole(&mut parser, text, &mut launches)?;
        Ok(Imported { launches: launches.0, devices: parser.devices(), warnings: parser.warnings(), ..Imported::default() })
    }

    fn stream(&self, file: &str) -> Option<Box<dyn RecordParser>> {
        Some(Box::new(RawParser::new(file)))
    }
}

/// Where the reader is in the file.
enum Stage {
    /// Profiler and application output before the header.
    Preamble,
    /// After the header: the units row (or, in files without one, the first launch).
    Units { columns: Columns },
    Rows,
}

/// The raw page's chunk-fed reader.
struct RawParser {
    file: String,
    stage: Stage,
    /// The line of the first unconsumed byte.
    line: usize,
    header_line: usize,
    id_col: usize,
    kernel_col: usize,
    plan: Vec<(usize, Plan)>,
    fields: Fields,
    /// The metrics of the row being read, emptied after each (its buffers reused).
    metrics: LaunchMetrics,
    names: NameCache,
    rows: usize,
    state: FileState,
}

impl RawParser {
    fn new(file: &str) -> Self {
        RawParser {
            file: file.to_string(),
            stage: Stage::Preamble,
            line: 1,
            header_line: 0,
            id_col: 0,
            kernel_col: 0,
            plan: Vec::new(),
            fields: Fields::default(),
            metrics: LaunchMetrics::new(),
            names: NameCache::default(),
            rows: 0,
            state: FileState::default(),
        }
    }

    /// The column plan from the header's names and the units row's units; columns of metrics
    /// this engine uses in a unit it does not understand are left out and reported.
    fn make_plan(columns: &Columns, unit: impl Fn(usize) -> String, state: &mut FileState) -> Vec<(usize, Plan)> {
        let mut plan = Vec::new();
        for (i, name) in columns.names().iter().enumerate() {
            let Some(metric) = resolve(name) else { continue };
            if let Role::Attr(Attr::Name | Attr::Cc) = metric.role {
                plan.push((i, Plan { metric, scale: None }));
                continue;
            }
            let unit = unit(i);
            match scale(&metric, &unit) {
                Some(s) => plan.push((i, Plan { metric, scale: Some(s) })),
                None => state.unknown_units.push((name.clone(), unit)),
            }
        }
        plan
    }

    /// One launch row (in `self.fields`) to `out`.
    fn row(&mut self, line: usize, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        let fields = &self.fields;
        if is_chatter_fields(fields.len(), fields.cell(0)) {
            return Ok(());
        }
        let id_cell = fields.cell(self.id_col);
        let id_text = id_cell.trim();
        let id = parse_number(id_text).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
            ImportError::new(&self.file, Some(line), format!("expected a launch number in column \"ID\", found {id_text:?}"))
        })? as u64;
        let metrics = &mut self.metrics;
        for &(i, p) in &self.plan {
            let Some(cell) = fields.get(i) else { continue };
            match (p.scale, p.metric.role) {
                (Some(scale), _) => {
                    if let Some(v) = parse_number(cell) {
                        metrics.put(p.metric, v * scale);
                    }
                }
                (None, Role::Attr(a)) => metrics.attr_text(a, columns_name(p.metric), cell),
                (None, _) => {}
            }
        }
        let kernel = self.names.intern(fields.cell(self.kernel_col));
        self.state.hand_over(id, self.names.name(kernel), metrics, out);
        self.rows += 1;
        Ok(())
    }
}

impl RawParser {
    /// Reads the preamble and the header at the start of `text`, if not read yet: the
    /// position after them and whether they were complete (if not, the position of the
    /// header's start, where reading resumes with more text).
    fn read_header(&mut self, text: &str, last: bool) -> Result<(usize, bool), ImportError> {
        let mut pos = 0;
        if !matches!(self.stage, Stage::Preamble) {
            return Ok((pos, true));
        }
        if !skip_to_header(&self.file, text, &mut pos, &mut self.line, last)? {
            return Ok((pos, false));
        }
        let mut reader = Reader::at(text, pos, self.line);
        if !last {
            reader = reader.complete_only();
        }
        let Some(header) = reader.next() else { return Ok((pos, false)) };
        let columns = Columns::new(&header);
        self.header_line = header.line;
        self.id_col = columns.need(&self.file, header.line, &["ID"])?;
        self.kernel_col = columns.need(&self.file, header.line, &["Kernel Name"])?;
        (pos, self.line) = (reader.pos(), reader.line());
        self.stage = Stage::Units { columns };
        Ok((pos, true))
    }

    /// Makes the column plan from the record after the header (in `self.fields`): the units
    /// row (present since Nsight Compute 2019.x; its ID cell is empty), or else the first
    /// launch, which is then still to be read. Returns whether it was the units row.
    fn plan_from_first_record(&mut self) -> bool {
        let Stage::Units { columns } = &self.stage else { return false };
        let is_units = parse_number(self.fields.cell(self.id_col)).is_none();
        self.plan = if is_units {
            Self::make_plan(columns, |i| self.fields.cell(i).to_string(), &mut self.state)
        } else {
            Self::make_plan(columns, |_| String::new(), &mut self.state)
        };
        // A row's fields other than these are not looked at: a wide row's others are then
        // skipped, not each found (`Fields::want`).
        let plan_cols = self.plan.iter().map(|&(i, _)| i);
        self.fields.want(plan_cols.chain([0, self.id_col, self.kernel_col]));
        self.stage = Stage::Rows;
        is_units
    }
}

impl RecordParser for RawParser {
    fn feed(&mut self, text: &str, last: bool, out: &mut dyn LaunchSink) -> Result<usize, ImportError> {
        let (pos, ready) = self.read_header(text, last)?;
        if !ready {
            return Ok(pos);
        }
        let mut reader = Reader::at(text, pos, self.line);
        if !last {
            reader = reader.complete_only();
        }
        if let Stage::Units { .. } = &self.stage {
            let Some(line) = reader.next_fields(&mut self.fields) else { return Ok(pos) };
            if !self.plan_from_first_record() {
                self.row(line, out)?;
            }
        }
        while let Some(line) = reader.next_fields(&mut self.fields) {
            self.row(line, out)?;
        }
        self.line = reader.line();
        Ok(reader.pos())
    }

    /// Rows stand alone on the raw page (one launch each): the head is the preamble, the
    /// header and the units row, and a part's parser makes the same column plan as the file's.
    fn read_head(&mut self, head: &str) -> Result<Option<usize>, ImportError> {
        if !matches!(self.stage, Stage::Preamble) {
            return Ok(None);
        }
        let (pos, ready) = self.read_header(head, false)?;
        if !ready {
            return Ok(None);
        }
        let mut reader = Reader::at(head, pos, self.line).complete_only();
        if reader.next_fields(&mut self.fields).is_none() {
            return Ok(None);
        }
        // Without a units row the plan is made now, as the file's first launch made it: the
        // part's first row is a launch, whatever it holds.
        if !self.plan_from_first_record() {
            return Ok(Some(pos));
        }
        self.line = reader.line();
        Ok(Some(reader.pos()))
    }

    fn part_state(&self) -> Option<PartState> {
        matches!(self.stage, Stage::Rows).then(|| PartState {
            devices: self.state.devices.entries().to_vec(),
            unknown_units: self.state.unknown_units.clone(),
            rows: self.rows,
        })
    }

    /// The later part's devices are added in the order it saw them, its unknown units after
    /// these (each once, as its launches would have added them) and its rows counted.
    fn absorb(&mut self, part: &PartState) -> Option<Vec<Option<u16>>> {
        if !matches!(self.stage, Stage::Rows) {
            return None;
        }
        for u in &part.unknown_units {
            if !self.state.unknown_units.contains(u) {
                self.state.unknown_units.push(u.clone());
            }
        }
        self.rows += part.rows;
        Some(self.state.devices.adopt(&part.devices))
    }

    fn line(&self) -> usize {
        self.line
    }

    fn devices(&self) -> Vec<crate::domain::Device> {
        self.state.devices.devices()
    }

    fn warnings(&self) -> Vec<ImportError> {
        self.state.warnings(&self.file)
    }

    fn finish(&mut self, _out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        match self.stage {
            Stage::Preamble => Err(ImportError::new(&self.file, None, "no Nsight Compute header line (\"ID\",\"Process ID\",…) found")),
            _ if self.rows == 0 => Err(ImportError::new(&self.file, Some(self.header_line), "the Nsight Compute table has a header but no kernel rows")
                .with_hint(hints::ncu_profiled_nothing())),
            _ => Ok(()),
        }
    }
}

/// The name a text column's metric is read by ([`LaunchMetrics::text`]).
fn columns_name(metric: Resolved) -> &'static str {
    match metric.role {
        Role::Attr(Attr::Cc) => "CC",
        _ => "device__attribute_display_name",
    }
}
