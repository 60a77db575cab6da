//! `roofline`: analyse profiler files and print machines, natively, with the app's engine.
//!
//! This file only runs what `args.rs` (clap) parsed and prints: the reports are built by
//! `roofline_engine::report` (shared with the app). Exit codes: 0 success, 1 a file could not
//! be read or understood, 2 usage error (clap's own, or a machine that cannot be used).

mod args;
mod compare;

use args::{Adjust, Cli, Command, MachineArgs};
use clap::{CommandFactory, Parser};
use roofline_engine::chart::{self, ChartInput, Theme};
use roofline_engine::model::{catalogue, Machine};
use roofline_engine::share;
use roofline_engine::choice::{self, ClockChoice, MachineChoice};
use roofline_engine::report::{analyze_choice, machine_report, render_analyze_text, render_machine_text};
use roofline_engine::{load_dataset, Dataset, SourceFile};
use std::process::ExitCode;

mod read_ahead;

/// A failure: message and exit code.
struct Failure {
    code: u8,
    message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure { code: 2, message: format!("{}\n(see `roofline --help`)", message.into()) }
}

fn input(message: impl Into<String>) -> Failure {
    Failure { code: 1, message: message.into() }
}

/// Files larger than this are read in chunks of [`CHUNK_BYTES`] and parsed as they stream
/// (`DatasetBuilder::push_chunk`): memory stays flat however large the file (a 1 GB Nsight
/// Compute raw page: see docs/PERFORMANCE.md), and no page is touched twice. Smaller files
/// are read whole, the app's path.
const STREAM_ABOVE_BYTES: u64 = 4 << 20;
/// One read: large enough to amortise the system call, small enough to stay in cache.
const CHUNK_BYTES: usize = 1 << 20;

fn read_files(paths: &[String]) -> Result<Dataset, Failure> {
    use std::io::Read;
    let mut builder = roofline_engine::dataset::DatasetBuilder::new();
    for p in paths {
        let cannot = |e: std::io::Error| input(format!("{p}: cannot read the file: {e}"));
        let mut file = std::fs::File::open(p).map_err(cannot)?;
        let len = file.metadata().map_err(cannot)?.len();
        roofline_engine::limits::check_size(p, len).map_err(|e| input(e.to_string()))?;
        if len <= STREAM_ABOVE_BYTES {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map_err(cannot)?;
            builder.add_file(&SourceFile { name: p.clone(), bytes }).map_err(|e| input(e.to_string()))?;
            continue;
        }
        read_ahead::for_each_chunk(file, CHUNK_BYTES, |chunk| builder.push_chunk(p, chunk)).map_err(|stop| match stop {
            read_ahead::Stop::Read(e) => cannot(e),
            read_ahead::Stop::Chunk(e) => input(e.to_string()),
        })?;
        builder.end_file().map_err(|e| input(e.to_string()))?;
    }
    let ds = builder.finish().map_err(|e| input(e.to_string()))?;
    for w in &ds.warnings {
        eprintln!("roofline: warning: {w}");
    }
    Ok(ds)
}

/// A catalogue id, a machine JSON file, or a profiler file describing a machine.
fn resolve_machine(spec: &str) -> Result<Machine, Failure> {
    if let Some(m) = catalogue::by_id(spec) {
        return Ok(m);
    }
    let path = std::path::Path::new(spec);
    if !path.exists() {
        return Err(usage(format!("unknown machine {spec:?}: not a catalogue id (see `roofline machine --list`) nor a file")));
    }
    let len = std::fs::metadata(path).map_err(|e| input(format!("{spec}: cannot read the file: {e}")))?.len();
    roofline_engine::limits::check_size(spec, len).map_err(|e| input(e.to_string()))?;
    let bytes = std::fs::read(path).map_err(|e| input(format!("{spec}: cannot read the file: {e}")))?;
    if let Ok(m) = serde_json::from_slice::<Machine>(&bytes) {
        return Ok(m);
    }
    let ds = load_dataset(&[SourceFile { name: spec.to_string(), bytes }]).map_err(|e| input(e.to_string()))?;
    ds.machine.ok_or_else(|| input(format!("{spec}: describes no machine (expected a machine JSON or an ERT roofline.json)")))
}

/// Applies `--basis` and `--clock` to a machine printed on its own (`roofline machine`): no
/// profile, so `measured` (the default) leaves it at its stated clock.
fn adjust(m: Machine, a: &Adjust) -> Result<Machine, Failure> {
    let m = match a.basis {
        Some(b) => m.with_basis(b.into()),
        None => m,
    };
    let clock = a.clock.unwrap_or_default();
    choice::at_clock(m, clock, None, false).map(|(m, _)| m).map_err(|e| usage(format!("{e} (--clock {})", clock_word(clock))))
}

fn clock_word(c: ClockChoice) -> String {
    match c {
        ClockChoice::Measured => "measured".into(),
        ClockChoice::Base => "base".into(),
        ClockChoice::Boost => "boost".into(),
        ClockChoice::Hz(hz) => format!("{} MHz", hz / 1e6),
    }
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, Failure> {
    serde_json::to_string_pretty(v).map(|s| s + "\n").map_err(|e| input(format!("cannot write JSON: {e}")))
}

fn run(command: Command) -> Result<String, Failure> {
    match command {
        Command::Analyze(a) => {
            let (ds, picked) = files_and_machine(&a.files, &a.machine, a.json)?;
            let r = analyze_choice(&ds, picked.as_ref());
            if a.json {
                json(&r)
            } else {
                Ok(render_analyze_text(&r))
            }
        }
        Command::Machine(a) => {
            let Some(spec) = &a.spec else {
                let ms = catalogue::all();
                if a.json {
                    let rows: Vec<serde_json::Value> = ms.iter().map(|m| serde_json::json!({"id": m.id, "name": m.name, "source": m.source})).collect();
                    return json(&rows);
                }
                return Ok(ms.iter().map(|m| format!("{:<16} {}\n", m.id, m.name)).collect());
            };
            let r = machine_report(&adjust(resolve_machine(spec)?, &a.adjust)?);
            if a.json {
                json(&r)
            } else {
                Ok(render_machine_text(&r))
            }
        }
        Command::Plot(a) => plot(&a),
        Command::Link(a) => link(&a),
        Command::Compare(a) => {
            // Each run chooses its own machine and clock, as `analyze` does for one; --machine
            // (and --clock, --basis) apply to both.
            let (before, picked) = files_and_machine(&a.before, &a.machine, a.json)?;
            let before = roofline_engine::compare::Run { dataset: before, choice: picked };
            let (after, picked) = files_and_machine(&a.to, &a.machine, a.json)?;
            let after = roofline_engine::compare::Run { dataset: after, choice: picked };
            let user = roofline_engine::compare::UserPairs { pairs: a.pair.clone(), unpair: a.unpair.clone() };
            let r = compare::report(&before, &after, &user).map_err(usage)?;
            if a.json {
                json(&r)
            } else {
                Ok(compare::render_text(&r))
            }
        }
    }
}

/// Reads the files and chooses the machine to place them against
/// ([`roofline_engine::choice::choose`]): `--machine` if given (not `auto`), else one a file
/// describes, else the profile's own GPU; at `--clock` (measured by default), restricted to
/// `--basis`. The given machine is resolved first: a usage error should not wait for the
/// files. What the choice has to say goes to stderr when `notes_to_stderr` (the text report
/// prints it itself).
fn files_and_machine(files: &[String], m: &MachineArgs, notes_to_stderr: bool) -> Result<(Dataset, Option<MachineChoice>), Failure> {
    let given = match m.machine.as_deref() {
        None | Some("auto") => None,
        Some(spec) => Some(resolve_machine(spec)?),
    };
    let ds = read_files(files)?;
    let clock = m.adjust.clock.unwrap_or_default();
    let mut picked = choice::choose(&ds, given, clock).map_err(|e| usage(format!("{e} (--clock {})", clock_word(clock))))?;
    if let (Some(c), Some(b)) = (picked.as_mut(), m.adjust.basis) {
        c.machine = c.machine.with_basis(b.into());
    }
    if !notes_to_stderr {
        return Ok((ds, picked));
    }
    for w in picked.iter().flat_map(|c| c.warnings.iter()) {
        eprintln!("roofline: note: {w}");
    }
    if picked.is_none() && !ds.kernels.is_empty() {
        eprintln!("roofline: note: {} (--machine ID)", choice::no_machine_reason(&ds));
    }
    Ok((ds, picked))
}

/// `roofline plot`: the chart as SVG in its slide frame (docs/CLI.md): `--title` above, and
/// unless `--no-footer` the machine and clock, the files and the link `roofline link` makes
/// of them ([`link_view`]), with its QR code on `--qr`. Notices go to stderr.
fn plot(a: &args::Plot) -> Result<String, Failure> {
    let (ds, picked) = files_and_machine(&a.files, &a.machine, true)?;
    let Some(picked) = picked else {
        return Err(usage("plot needs a machine: the files do not say which GPU ran them; give --machine ID (see `roofline machine --list`)"));
    };
    let chart_input = ChartInput::new(&ds.kernels, &picked.machine, a.size.width_px, a.size.height_px).with_mode(a.mode.mode).with_theme(Theme::Light).with_transfers(&ds.transfers);
    let scene = chart::build(&chart_input);
    let mut caption = chart::caption::Caption { title: a.title.clone().unwrap_or_default(), qr: a.qr, ..Default::default() };
    if !a.no_footer {
        caption.machine = chart::caption::machine_line(&picked.machine);
        caption.files = chart::caption::files_line(&a.files);
        match share::encode(&link_view(&ds, Some(picked), &a.machine, a.mode.mode)?) {
            Ok(link) => caption.link = link.url(&a.base),
            Err(e) => eprintln!("roofline: note: {e}: the footer has no link (`roofline link -o VIEW{}` writes the view as a file)", share::file::EXTENSION),
        }
    }
    let framed = chart::caption::frame(&scene, &caption);
    if let Some(why) = framed.qr.notice() {
        eprintln!("roofline: note: {why}");
    }
    std::fs::write(&a.output, chart::svg::render_framed(&framed)).map_err(|e| input(format!("{}: cannot write the chart: {e}", a.output)))?;
    Ok(String::new())
}

/// `roofline link`: the link the app would make of these files (docs/SHARING.md). Notices
/// (shortened names, a view too large for a link) go to stderr, the link alone to stdout.
fn link(a: &args::Link) -> Result<String, Failure> {
    let (ds, picked) = files_and_machine(&a.files, &a.machine, true)?;
    let view = link_view(&ds, picked, &a.machine, a.mode.mode)?;
    if let Some(path) = &a.output {
        std::fs::write(path, share::file::to_json(&view)).map_err(|e| input(format!("{path}: cannot write the view: {e}")))?;
    }
    match share::encode(&view) {
        Ok(link) => {
            if link.shortened_names > 0 {
                eprintln!(
                    "roofline: {} of {} kernel names were shortened (template arguments and parameter lists dropped) to keep the link under {} characters; -o VIEW{} keeps them in full",
                    link.shortened_names,
                    view.kernels.len(),
                    share::MAX_LINK_CHARS,
                    share::file::EXTENSION
                );
            }
            let url = link.url(&a.base);
            if let Some(long) = share::long_link_warning(url.chars().count(), &format!("-o VIEW{} writes it", share::file::EXTENSION)) {
                eprintln!("roofline: note: {long}");
            }
            Ok(url + "\n")
        }
        Err(e @ share::EncodeError::TooLarge { .. }) => match &a.output {
            Some(path) => {
                eprintln!("roofline: {e}; wrote {path}: open it in the app by dropping it on the page");
                Ok(String::new())
            }
            None => Err(input(format!("{e}: give -o VIEW{} to write it", share::file::EXTENSION))),
        },
        Err(e) => Err(input(e.to_string())),
    }
}

/// The view `roofline link` (and `plot`'s footer) makes of the files: the chosen machine at
/// its clock, or the app's fallback machine, with a notice, when there is none.
fn link_view(ds: &Dataset, picked: Option<MachineChoice>, m: &MachineArgs, mode: chart::Mode) -> Result<share::View, Failure> {
    let choice = picked.as_ref().map(|c| share::ViewChoice::of(c.chosen, c.clock, ds.main_device().map(|r| &r.device), ds.measured_sm_clock_hz()));
    let machine = match picked {
        Some(c) => c.machine,
        None => {
            // As the app does: its first machine, V100, for a GPU profile; a catalogue CPU for a CPU's.
            let fallback = choice::fallback_machine(ds, catalogue::v100());
            if choice::is_cpu_profile(ds) {
                eprintln!("roofline: no --machine and no roofs in the files, which do not say which CPU ran them: the link uses {}; choose the CPU (--machine ID)", fallback.id);
            } else {
                eprintln!("roofline: no --machine, none in the files and no GPU named by them: the link uses v100, as the app does");
            }
            let clock = m.adjust.clock.unwrap_or_default();
            choice::at_clock(fallback, clock, ds.measured_sm_clock_hz(), false).map(|(m, _)| m).map_err(usage)?
        }
    };
    Ok(share::View { mode: mode.id().to_string(), choice, ..share::View::new(&machine, &ds.kernels) })
}

fn main() -> ExitCode {
    // clap prints help and version (exit 0) and usage errors (exit 2) itself.
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        // No command: the help, as `--help` prints it.
        println!("{}", Cli::command().render_long_help());
        return ExitCode::SUCCESS;
    };
    match run(command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(f) => {
            eprintln!("roofline: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
