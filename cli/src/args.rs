//! The command line, declared with clap's derive: clap generates `--help`, `--version`, the
//! usage errors (exit 2) and the value checks; `main.rs` only runs what was parsed.
//!
//! Options that choose and adjust the machine are one flattened group ([`MachineArgs`]) shared
//! by every command that places kernels, so a new way to pick a machine or a clock is added
//! in one place: a variant of [`Clock`] and its case in [`parse_clock`], or a case of
//! `--machine`'s value in `main.rs::resolve_machine`.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use roofline_engine::chart::Mode;
use roofline_engine::choice::ClockChoice;
use roofline_engine::model::Basis;

/// The synopsis of every command (clap generates each command's own usage for its errors).
const USAGE: &str = "\
roofline analyze [OPTIONS] FILE...
       roofline machine [OPTIONS] ID|FILE
       roofline machine --list [--json]
       roofline plot [OPTIONS] FILE... -o CHART.svg [--title TEXT] [--qr] [--no-footer]
       roofline link [OPTIONS] FILE... [--base URL] [-o VIEW.roofline.json]
       roofline compare [OPTIONS] BEFORE... --to AFTER... [--pair OLD=NEW]...
       roofline --help | --version";

const AFTER_HELP: &str = "\
Units: base units everywhere in JSON (seconds, FLOPs, bytes, instructions, per second); decimal
prefixes in tables (1 GB/s = 1e9 bytes/s). Unmeasured quantities are null, never 0.

EXIT CODES: 0 success; 1 a file could not be read or understood (the message names the file and
the line); 2 usage error.

Examples:
    roofline analyze --json ncu_*.csv          (the profile's GPU at its measured clock)
    roofline analyze --machine v100 --clock base --json ncu_*.csv
    roofline machine v100 --json
    roofline plot --machine a100 run.csv -o roofline.svg
    roofline plot --title 'Decode on B200' --qr run.csv -o slide.svg
    roofline link --machine v100 --clock base --mode hierarchical ncu_*.csv
    roofline compare v1.ncu-rep --to v2.ncu-rep --pair old_kernel=new_kernel --json";

/// roofline — roofline analysis of GPU/CPU profiler output
#[derive(Debug, Parser)]
#[command(name = "roofline", version, flatten_help = true, disable_help_subcommand = true, override_usage = USAGE, after_help = AFTER_HELP)]
pub struct Cli {
    /// None: no command given, which prints the help.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Per-kernel FLOPs, bytes, roofline dots and guidance of profiler files.
    ///
    /// Reads profiler files (Nsight Compute, nvprof, rocprof, Intel Advisor, ERT, …; the
    /// format is detected from the content), joins files of one run, sums launches per kernel
    /// and prints each kernel's FLOPs, bytes, instructions, transactions, hierarchical and
    /// instruction roofline dots, memory-wall position, guidance (binding roof, % of roof,
    /// headroom, Amdahl rank) and a one-sentence summary. Memory copies and memsets are listed
    /// as transfers, not kernels.
    Analyze(Analyze),
    /// A machine's ceilings, ridge points, instruction and transaction rates, and walls.
    ///
    /// Prints compute and memory ceilings (theoretical and measured side by side), ridge
    /// points, peak warp/tensor instructions per second, transactions per second per level,
    /// and the memory walls. --list prints the catalogue.
    Machine(MachineCmd),
    /// Write a roofline chart of the files as SVG (--mode picks which), ready for a slide.
    ///
    /// Under the chart a footer names the machine and its clock, the files, and the link to
    /// the live view that `roofline link` prints (a real hyperlink in the SVG; shortened on
    /// the picture when long); --title adds a title above, --qr the link's QR code,
    /// --no-footer leaves the footer out.
    Plot(Plot),
    /// Print the share link the app would make of the files.
    ///
    /// The page address with the kernels' counters, the machine and the mode in its #fragment
    /// (nothing is uploaded). Long names are shortened, with a notice, if the link would
    /// exceed 32 000 characters; a view too large even then is written with -o as a
    /// .roofline.json file the app opens by drop (docs/SHARING.md).
    Link(Link),
    /// Compare two runs of one program: kernel by kernel, and the whole run.
    ///
    /// BEFORE files are one run, AFTER files (after --to) the other; each run is judged
    /// against its own machine and clock, chosen as `analyze` chooses (or --machine for both).
    /// Kernels pair by full name, then by the same function with other template arguments,
    /// then by a short name unique in both runs; --pair OLD=NEW pairs two by hand (overriding
    /// the automatic pairing), --unpair NAME keeps one out. Prints each pair's time before and
    /// after, speed-up and % of its roof before → after, the kernels added and removed, and
    /// the run's speed-up with the share of the before run each pair's saving accounts for.
    Compare(Compare),
}

#[derive(Debug, Args)]
pub struct Compare {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Print one JSON document (the public format of docs/CLI.md) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Pair a kernel of the before run with one of the after run (names in full, by their
    /// short name, or by a unique start of the name); overrides the automatic pairing.
    /// Repeatable.
    #[arg(long, value_name = "OLD=NEW", value_parser = parse_pair)]
    pub pair: Vec<(String, String)>,
    /// Leave this kernel (of either run) unpaired: it is listed as removed or added.
    /// Repeatable.
    #[arg(long, value_name = "NAME")]
    pub unpair: Vec<String>,
    /// The before run's profiler files; several files of one run are joined.
    #[arg(value_name = "BEFORE", required = true)]
    pub before: Vec<String>,
    /// The after run's profiler files.
    #[arg(long, value_name = "AFTER", required = true, num_args = 1..)]
    pub to: Vec<String>,
}

/// `--pair OLD=NEW`, its shape ([`roofline_engine::compare::UserPairs::parse_pair`]).
fn parse_pair(text: &str) -> Result<(String, String), String> {
    roofline_engine::compare::UserPairs::parse_pair(text)
}

#[derive(Debug, Args)]
pub struct Analyze {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Print one JSON document (the public format of docs/CLI.md) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Profiler files; several files of one run are joined.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
}

#[derive(Debug, Args)]
pub struct MachineCmd {
    #[command(flatten)]
    pub adjust: Adjust,
    /// Print one JSON document (the public format of docs/CLI.md) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// List the catalogue.
    #[arg(long, conflicts_with = "spec")]
    pub list: bool,
    /// A catalogue id, a machine JSON file, or a profiler file that describes a machine.
    #[arg(value_name = "ID|FILE", required_unless_present = "list")]
    pub spec: Option<String>,
}

#[derive(Debug, Args)]
pub struct Plot {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// The SVG file to write.
    #[arg(short, long, value_name = "CHART.svg")]
    pub output: String,
    /// Chart size in pixels, 100–10000 each way.
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "800x500")]
    pub size: Size,
    #[command(flatten)]
    pub mode: ModeArg,
    /// A title above the chart.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// The app's address, for the link in the footer (as `roofline link --base`).
    #[arg(long, value_name = "URL", default_value = roofline_engine::share::DEFAULT_BASE_URL)]
    pub base: String,
    /// Draw the link's QR code in the footer (left out, with a note, when the link is too long
    /// for a QR code that stays scannable on a slide).
    #[arg(long, conflicts_with = "no_footer")]
    pub qr: bool,
    /// No footer (machine, files, link) under the chart.
    #[arg(long)]
    pub no_footer: bool,
    /// Profiler files; several files of one run are joined.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
}

#[derive(Debug, Args)]
pub struct Link {
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Also save the view as this .roofline.json file (the way to share a view too large for
    /// a link).
    #[arg(short, long, value_name = "VIEW.roofline.json")]
    pub output: Option<String>,
    #[command(flatten)]
    pub mode: ModeArg,
    /// The app's address.
    #[arg(long, value_name = "URL", default_value = roofline_engine::share::DEFAULT_BASE_URL)]
    pub base: String,
    /// Profiler files; several files of one run are joined.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
}

/// Which machine kernels are placed against, and how it is adjusted.
#[derive(Debug, Args)]
pub struct MachineArgs {
    /// Machine to place kernels against: `auto` (the default: a machine file among the
    /// inputs, else the GPU the profile names, identified in the catalogue), a catalogue id
    /// (see `roofline machine --list`), a JSON file of a machine (as `roofline machine ID
    /// --json` prints it), or a profiler file that describes one (ERT roofline.json).
    /// Without any, `analyze` reports without roofs.
    #[arg(long, value_name = "auto|ID|FILE")]
    pub machine: Option<String>,
    #[command(flatten)]
    pub adjust: Adjust,
}

/// How a machine's ceilings are adjusted (every command that prints or uses a machine).
#[derive(Debug, Args)]
pub struct Adjust {
    /// Core clock for the machine's compute and on-chip ceilings: measured (the default: the
    /// SM clock the profile measured; without one, base for Nsight Compute files, which lock
    /// clocks to base, else the machine's stated clock), base, boost, or a frequency (MHz, or
    /// with a unit: 1.3GHz).
    #[arg(long, value_name = "measured|base|boost|MHZ", value_parser = parse_clock)]
    pub clock: Option<ClockChoice>,
    /// Use only data-sheet (theoretical) or only measured (empirical) values where the machine
    /// has them. Default: measured where known.
    #[arg(long, value_enum)]
    pub basis: Option<BasisArg>,
}

/// `--mode`, for the commands that draw or link a chart.
#[derive(Debug, Args)]
pub struct ModeArg {
    /// Chart mode.
    #[arg(long, value_name = "MODE", default_value = "classic", value_parser = ModeParser)]
    pub mode: Mode,
}


/// `--basis`: clap's view of [`Basis`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BasisArg {
    Theoretical,
    Empirical,
}

impl From<BasisArg> for Basis {
    fn from(b: BasisArg) -> Basis {
        match b {
            BasisArg::Theoretical => Basis::Theoretical,
            BasisArg::Empirical => Basis::Empirical,
        }
    }
}

/// `--size WxH` in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub width_px: f64,
    pub height_px: f64,
}

/// `--clock`, as the engine reads it ([`ClockChoice::parse`]: the app's words too).
fn parse_clock(text: &str) -> Result<ClockChoice, String> {
    ClockChoice::parse(text)
}

fn parse_size(text: &str) -> Result<Size, String> {
    let parsed = text.split_once('x').and_then(|(w, h)| Some((w.parse::<f64>().ok()?, h.parse::<f64>().ok()?)));
    match parsed {
        Some((w, h)) if (100.0..=10000.0).contains(&w) && (100.0..=10000.0).contains(&h) => Ok(Size { width_px: w, height_px: h }),
        _ => Err("expected WIDTHxHEIGHT in pixels, each 100–10000".into()),
    }
}

/// `--mode`: the engine's mode ids, listed in help as clap's possible values; an unknown one
/// is refused naming them all ("--mode is one of …").
#[derive(Clone, Copy)]
struct ModeParser;

impl TypedValueParser for ModeParser {
    type Value = Mode;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &std::ffi::OsStr) -> Result<Mode, clap::Error> {
        let text = value.to_string_lossy();
        Mode::from_id(&text).ok_or_else(|| {
            let ids: Vec<&str> = Mode::ALL.iter().map(|m| m.id()).collect();
            let why = format!("--mode is one of {}, not {text:?}", ids.join(", "));
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("invalid value for {}: {why}\n", arg.map_or("--mode".into(), ToString::to_string))).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Mode::ALL.into_iter().map(|m| PossibleValue::new(m.id()))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_declaration_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn values_parse_as_documented() {
        assert_eq!(parse_clock("base"), Ok(ClockChoice::Base));
        assert_eq!(parse_clock("measured"), Ok(ClockChoice::Measured));
        assert_eq!(parse_clock("1312"), Ok(ClockChoice::Hz(1312e6)));
        assert!(parse_clock("-5").is_err() && parse_clock("fast").is_err() && parse_clock("inf").is_err());
        assert_eq!(parse_size("1200x600"), Ok(Size { width_px: 1200.0, height_px: 600.0 }));
        assert!(parse_size("99x500").is_err() && parse_size("800").is_err());
        let cli = Cli::try_parse_from(["roofline", "plot", "a.csv", "--mode", "walls", "-o", "c.svg", "b.csv"]).map_err(|e| e.to_string());
        let Ok(Cli { command: Some(Command::Plot(p)) }) = cli else { panic!("{cli:?}") };
        assert_eq!((p.mode.mode, p.files, p.output.as_str(), p.size), (Mode::Walls, vec!["a.csv".to_string(), "b.csv".into()], "c.svg", Size { width_px: 800.0, height_px: 500.0 }));
        let cli = Cli::try_parse_from(["roofline", "compare", "a1", "a2", "--to", "b1", "b2", "--pair", "x=y", "--json"]).map_err(|e| e.to_string());
        let Ok(Cli { command: Some(Command::Compare(c)) }) = cli else { panic!("{cli:?}") };
        assert_eq!((c.before, c.to, c.pair, c.json), (vec!["a1".to_string(), "a2".into()], vec!["b1".to_string(), "b2".into()], vec![("x".to_string(), "y".to_string())], true));
        assert!(Cli::try_parse_from(["roofline", "compare", "a", "--to", "b", "--pair", "xy"]).is_err());
    }
}
