//! `roofline`: analyse profiler files and print machines, natively, with the app's engine.
//!
//! This file only parses arguments and prints: the reports are built by
//! `roofline_engine::report` (shared with the app). Exit codes: 0 success, 1 a file could not
//! be read or understood, 2 usage error.

use roofline_engine::chart::{self, ChartInput, Mode, Theme};
use roofline_engine::model::{catalogue, Basis, Machine};
use roofline_engine::share;
use roofline_engine::report::{analyze, machine_report, render_analyze_text, render_machine_text};
use roofline_engine::{load_dataset, Dataset, SourceFile};
use std::process::ExitCode;

mod read_ahead;

const HELP: &str = "\
roofline — roofline analysis of GPU/CPU profiler output

USAGE:
    roofline analyze [OPTIONS] FILE...
    roofline machine [OPTIONS] ID|FILE
    roofline machine --list [--json]
    roofline plot [OPTIONS] FILE... -o CHART.svg
    roofline link [OPTIONS] FILE... [-o VIEW.roofline.json]
    roofline --help | --version

COMMANDS:
    analyze   Read profiler files (Nsight Compute, nvprof, rocprof, Intel Advisor, ERT, …;
              the format is detected from the content), join files of one run, sum launches
              per kernel and print each kernel's FLOPs, bytes, instructions, transactions,
              hierarchical and instruction roofline dots, memory-wall position, guidance
              (binding roof, % of roof, headroom, Amdahl rank) and a one-sentence summary.
              Memory copies and memsets are listed as transfers, not kernels.
    machine   Print a machine's ceilings: compute and memory (theoretical and measured side by
              side), ridge points, peak warp/tensor instructions per second, transactions per
              second per level, and the memory walls. --list prints the catalogue.
    plot      Write a roofline chart of the files as SVG (--mode picks which).
    link      Print the share link the app would make of the files: the page address with
              the kernels' counters, the machine and the mode in its #fragment (nothing is
              uploaded). Long names are shortened, with a notice, if the link would exceed
              32 000 characters; a view too large even then is written with -o as a
              .roofline.json file the app opens by drop (docs/SHARING.md).

OPTIONS:
    --machine ID|FILE   Machine to place kernels against: a catalogue id (see `roofline machine
                        --list`), a JSON file of a machine (as `roofline machine ID --json`
                        prints it), or a profiler file that describes one (ERT roofline.json).
                        Without it, `analyze` uses a machine found among the input files, if
                        any, else reports without roofs.
    --clock base|boost|MHZ
                        Core clock for the machine's compute and on-chip ceilings. Nsight
                        Compute locks the clock to base by default: use `--clock base` for its
                        profiles. Default: the catalogue's boost clock.
    --basis theoretical|empirical
                        Use only data-sheet (theoretical) or only measured (empirical) values
                        where the machine has them. Default: measured where known.
    --json              Print one JSON document (the public format of docs/CLI.md) instead of
                        a table.
    --list              With `machine`: list the catalogue.
    -o, --output FILE   With `plot`: the SVG file to write. With `link`: also save the view as
                        this .roofline.json file (the way to share a view too large for a link).
    --size WxH          With `plot`: chart size in pixels (default 800x500).
    --mode MODE         With `plot` and `link`: classic (default), hierarchical, instruction, walls or
                        transfers.
    --base URL          With `link`: the app's address (default
                        https://example.github.io/roofline/).
    -h, --help          Print this help.
    -V, --version       Print the version.

UNITS:
    Base units everywhere in JSON (seconds, FLOPs, bytes, instructions, per second); decimal
    prefixes in tables (1 GB/s = 1e9 bytes/s). Unmeasured quantities are null, never 0.

EXIT CODES:
    0 success; 1 a file could not be read or understood (the message names the file and the
    line); 2 usage error.

EXAMPLES:
    roofline analyze --machine v100 --clock base --json ncu_*.csv
    roofline machine v100 --json
    roofline plot --machine a100 run.csv -o roofline.svg
    roofline link --machine v100 --clock base --mode hierarchical ncu_*.csv
";

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

#[derive(Default)]
struct Args {
    command: String,
    files: Vec<String>,
    machine: Option<String>,
    clock: Option<String>,
    basis: Option<Basis>,
    json: bool,
    list: bool,
    output: Option<String>,
    size: Option<(f64, f64)>,
    mode: Option<Mode>,
    /// `link --base`: the app's address.
    base: Option<String>,
}

fn parse(argv: &[String]) -> Result<Args, Failure> {
    let mut a = Args::default();
    let mut it = argv.iter();
    let value = |it: &mut std::slice::Iter<String>, flag: &str| it.next().cloned().ok_or_else(|| usage(format!("{flag} needs a value")));
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let val = |it: &mut std::slice::Iter<String>| inline.clone().map_or_else(|| value(it, flag), Ok);
        match flag {
            "-h" | "--help" => a.command = "help".into(),
            "-V" | "--version" => a.command = "version".into(),
            "--json" => a.json = true,
            "--list" => a.list = true,
            "--machine" => a.machine = Some(val(&mut it)?),
            "--clock" => a.clock = Some(val(&mut it)?),
            "--basis" => {
                a.basis = Some(match val(&mut it)?.as_str() {
                    "theoretical" => Basis::Theoretical,
                    "empirical" => Basis::Empirical,
                    other => return Err(usage(format!("--basis is theoretical or empirical, not {other:?}"))),
                })
            }
            "-o" | "--output" => a.output = Some(val(&mut it)?),
            "--base" => a.base = Some(val(&mut it)?),
            "--mode" => {
                let v = val(&mut it)?;
                let ids: Vec<&str> = Mode::ALL.iter().map(|m| m.id()).collect();
                a.mode = Some(Mode::from_id(&v).ok_or_else(|| usage(format!("--mode is one of {}, not {v:?}", ids.join(", "))))?);
            }
            "--size" => {
                let v = val(&mut it)?;
                let parsed = v.split_once('x').and_then(|(w, h)| Some((w.parse::<f64>().ok()?, h.parse::<f64>().ok()?)));
                match parsed {
                    Some((w, h)) if w >= 100.0 && h >= 100.0 && w <= 10000.0 && h <= 10000.0 => a.size = Some((w, h)),
                    _ => return Err(usage(format!("--size is WIDTHxHEIGHT in pixels (100–10000), not {v:?}"))),
                }
            }
            f if f.starts_with('-') && f.len() > 1 => return Err(usage(format!("unknown option {f}"))),
            _ if a.command.is_empty() => a.command = arg.clone(),
            _ => a.files.push(arg.clone()),
        }
    }
    Ok(a)
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

fn adjust(m: Machine, a: &Args) -> Result<Machine, Failure> {
    let m = match a.basis {
        Some(b) => m.with_basis(b),
        None => m,
    };
    let Some(clock) = &a.clock else { return Ok(m) };
    let hz = match clock.as_str() {
        "base" => m.base_clock_hz.ok_or_else(|| usage(format!("machine {} states no base clock", m.id)))?,
        "boost" => m.boost_clock_hz.ok_or_else(|| usage(format!("machine {} states no boost clock", m.id)))?,
        mhz => match mhz.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => v * 1e6,
            _ => return Err(usage(format!("--clock is base, boost or a number of MHz, not {mhz:?}"))),
        },
    };
    if m.clock_hz.is_none() {
        return Err(usage(format!("machine {} states no clock, so --clock cannot rescale it", m.id)));
    }
    Ok(m.at_clock(hz))
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, Failure> {
    serde_json::to_string_pretty(v).map_err(|e| input(format!("cannot write JSON: {e}")))
}

fn run(a: &Args) -> Result<String, Failure> {
    match a.command.as_str() {
        "" | "help" => Ok(HELP.to_string()),
        "version" => Ok(format!("roofline {}\n", env!("CARGO_PKG_VERSION"))),
        "analyze" => {
            if a.files.is_empty() {
                return Err(usage("analyze needs at least one FILE"));
            }
            // The machine first: a usage error should not wait for the files to be read.
            let given = a.machine.as_deref().map(|spec| adjust(resolve_machine(spec)?, a)).transpose()?;
            let ds = read_files(&a.files)?;
            let machine = match given {
                Some(m) => Some(m),
                None => ds.machine.clone().map(|m| adjust(m, a)).transpose()?,
            };
            let r = analyze(&ds, machine.as_ref());
            if a.json {
                json(&r).map(|s| s + "\n")
            } else {
                Ok(render_analyze_text(&r))
            }
        }
        "machine" => {
            if a.list {
                let ms = catalogue::all();
                if a.json {
                    let rows: Vec<serde_json::Value> = ms.iter().map(|m| serde_json::json!({"id": m.id, "name": m.name, "source": m.source})).collect();
                    return json(&rows).map(|s| s + "\n");
                }
                return Ok(ms.iter().map(|m| format!("{:<16} {}\n", m.id, m.name)).collect());
            }
            let [spec] = a.files.as_slice() else { return Err(usage("machine needs one ID or FILE (or --list)")) };
            let m = adjust(resolve_machine(spec)?, a)?;
            let r = machine_report(&m);
            if a.json {
                json(&r).map(|s| s + "\n")
            } else {
                Ok(render_machine_text(&r))
            }
        }
        "plot" => {
            let out = a.output.as_ref().ok_or_else(|| usage("plot needs -o CHART.svg"))?;
            if a.files.is_empty() {
                return Err(usage("plot needs at least one FILE"));
            }
            let (ds, machine) = files_and_machine(a)?;
            let machine = machine.ok_or_else(|| usage("plot needs a machine: give --machine ID (see `roofline machine --list`)"))?;
            let (width, height) = a.size.unwrap_or((800.0, 500.0));
            let chart_input = ChartInput::new(&ds.kernels, &machine, width, height).with_mode(a.mode.unwrap_or(Mode::Classic)).with_theme(Theme::Light).with_transfers(&ds.transfers);
            let svg = chart::svg::render(&chart::build(&chart_input));
            std::fs::write(out, svg).map_err(|e| input(format!("{out}: cannot write the chart: {e}")))?;
            Ok(String::new())
        }
        "link" => link(a),
        other => Err(usage(format!("unknown command {other:?}"))),
    }
}

/// Reads the files, and the machine to place them against: `--machine` if given, else one a
/// file describes (ERT, Advisor roofs, rocprof-compute), each adjusted by `--clock`/`--basis`.
fn files_and_machine(a: &Args) -> Result<(Dataset, Option<Machine>), Failure> {
    let given = a.machine.as_deref().map(|spec| adjust(resolve_machine(spec)?, a)).transpose()?;
    let ds = read_files(&a.files)?;
    let machine = match given {
        Some(m) => Some(m),
        None => ds.machine.clone().map(|m| adjust(m, a)).transpose()?,
    };
    Ok((ds, machine))
}

/// `roofline link`: the link the app would make of these files (docs/SHARING.md). Notices
/// (shortened names, a view too large for a link) go to stderr, the link alone to stdout.
fn link(a: &Args) -> Result<String, Failure> {
    if a.files.is_empty() {
        return Err(usage("link needs at least one FILE"));
    }
    let (ds, machine) = files_and_machine(a)?;
    let machine = match machine {
        Some(m) => m,
        None => {
            eprintln!("roofline: no --machine and none in the files: the link uses v100, as the app does");
            adjust(catalogue::v100(), a)?
        }
    };
    let view = share::View { mode: a.mode.unwrap_or_default().id().to_string(), ..share::View::new(&machine, &ds.kernels) };
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
            Ok(link.url(a.base.as_deref().unwrap_or(share::DEFAULT_BASE_URL)) + "\n")
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

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match parse(&argv).and_then(|a| run(&a)) {
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
