//! [`View`]: everything a shared link (or a `.roofline.json` file) restores.
//!
//! Settings are plain strings and numbers rather than the chart's enums, so that a link made by
//! a newer build (a mode or theme this build does not have) still opens: the app falls back
//! on what it does not understand instead of refusing the whole link. The typed accessors
//! ([`View::chart_mode`], [`View::hidden`], …) do that parsing in one place.

use crate::chart::{ColorBy, Mode, Theme, WordSize, Zoom};
use crate::domain::counters::Counters;
use crate::model::{catalogue, ComputeKind, Level, Machine};
use crate::domain::profile::KernelProfile;
use crate::choice::{Chosen, ClockBasis};
use crate::domain::Device;
use serde::{Deserialize, Serialize};

/// Everything needed to redraw a view. Fill it with `View { …, ..View::default() }` or
/// [`View::new`]; the defaults are the app's own (classic mode, FP64 words, nothing hidden).
///
/// Read from a `.roofline.json` document (`share::file`) leniently, as docs/SHARING.md
/// promises: a missing setting takes its default (`serde(default)`), unknown members and
/// counter names are ignored, `null` is "none" for optional settings; a kernel needs its
/// name, launch count and counters, and a custom machine its id, name, source and ceilings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    /// Catalogue id of the machine (`v100`). With [`View::custom_machine`] it is only the
    /// id the custom machine was derived from, shown if the custom one cannot be used.
    pub machine_id: String,
    /// The whole machine, when it is not a catalogue machine as this build defines it: the
    /// user edited a ceiling or changed the clock, or loaded it from a file (ERT). `None`:
    /// look `machine_id` up in the catalogue. [`View::set_machine`] decides.
    pub custom_machine: Option<Machine>,
    /// Chart mode id ([`Mode::id`]: `classic`, `hierarchical`, `instruction`, `walls`).
    pub mode: String,
    /// Compute roof drawn: a [`ComputeKind`] id (`fp64`, `fp32`, `fp16`, `tensor`, `int`);
    /// `None` lets the chart pick the precision with the most FLOPs.
    pub compute: Option<String>,
    /// Memory levels switched off in the chart: [`Level`] ids (`l1`, `shared`, `l2`, `l3`,
    /// `dram`), at most 16 entries.
    pub hidden_levels: Vec<String>,
    /// Zoomed axis ranges in data units; `None` shows everything.
    pub zoom: Option<Zoom>,
    /// Text of the kernel filter box (empty: no filter).
    pub filter: String,
    /// Show only the N kernels that take the most time; `None`: all.
    pub top_n: Option<u32>,
    /// Index into `kernels` of the selected kernel. A selection past the end is not written.
    pub selected: Option<usize>,
    /// `light` or `dark`; `None` follows the reader's system setting.
    pub theme: Option<String>,
    /// Word size of the memory-walls mode, bytes (8 for FP64 data, 4 for FP32); 1–255.
    pub word_bytes: u8,
    /// The kernels with their aggregated counters (totals over launches, base units).
    pub kernels: Vec<SharedKernel>,
    /// How the machine was chosen, and the profile's device and measured clock, so that the
    /// reopened view says the same sentence and warnings ([`crate::choice::sentence`]).
    /// Left out of view files when absent, so they read as before choices existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<ViewChoice>,
    /// Draw every compute roof of the machine, not only those of the data types the kernels
    /// use ([`crate::chart::ChartInput::all_roofs`]). Left out of view files when off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub all_roofs: bool,
    /// What the classic chart's dot colours mean: a [`ColorBy`] id (`precision`, `bound`,
    /// `kernel`); `None` is the default, precision. Left out of view files when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color_by: Option<String>,
    /// Runs compared with this view's kernels (issue 44): `None` for one run, which is what
    /// v1 carries. A view with runs is written as a `v2.` link (docs/SHARING.md): v1 is
    /// frozen, and a v1 link is never re-encoded as v2 unless runs were added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<ViewRuns>,
}

/// Runs compared in a view: the earlier runs, each with its own machine (an A100 run and an
/// H100 run are each drawn against their own roofs), and the user's pairing between the last
/// earlier run and the view's kernels (the current run). Pairs and unpairs are indices, not
/// names, so that a name shortened to fit the link still pairs the same kernels.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewRuns {
    /// The current run's name (its files), the view's own kernels.
    pub name: String,
    /// Earlier runs, oldest first; the last one is the "before" of the user's pairs.
    pub earlier: Vec<SharedRun>,
    /// The user's pairs: (kernel of the last earlier run, kernel of the current run).
    pub pairs: Vec<(usize, usize)>,
    /// Kernels of the last earlier run the user keeps out of automatic pairing.
    pub unpaired_before: Vec<usize>,
    /// Kernels of the current run the user keeps out of automatic pairing.
    pub unpaired_after: Vec<usize>,
}

/// An earlier run as a link carries it: its name, its machine (as [`View`] carries one: a
/// catalogue id, or the whole machine), how that machine was chosen, and its kernels.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SharedRun {
    pub name: String,
    pub machine_id: String,
    pub custom_machine: Option<Machine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<ViewChoice>,
    pub kernels: Vec<SharedKernel>,
}

impl SharedRun {
    /// The run of `kernels` judged against `machine`: its id alone where it is the
    /// catalogue's machine as is (as [`View::set_machine`]).
    pub fn new(name: &str, machine: &Machine, kernels: &[KernelProfile]) -> SharedRun {
        let mut v = View::default();
        v.set_machine(machine);
        SharedRun { name: name.to_string(), machine_id: v.machine_id, custom_machine: v.custom_machine, choice: None, kernels: kernels.iter().map(SharedKernel::from).collect() }
    }

    /// Its machine, as [`View::machine`]: the custom one, else the catalogue's of that id
    /// (`None`: an id this build does not know), at each kernel's clock if measured.
    pub fn machine(&self) -> Option<Machine> {
        machine_of(self.custom_machine.as_ref(), &self.machine_id, self.choice.as_ref())
    }

    pub fn kernel_profiles(&self) -> Vec<KernelProfile> {
        self.kernels.iter().map(KernelProfile::from).collect()
    }
}

/// A view's or a run's machine: the custom one, else the catalogue's of `id` (`None`: an id
/// this build does not know), each kernel judged at its own measured clock when the choice's
/// clock is the measured one. One rule for both.
fn machine_of(custom: Option<&Machine>, id: &str, choice: Option<&ViewChoice>) -> Option<Machine> {
    let mut m = custom.cloned().or_else(|| catalogue::by_id(id))?;
    m.per_kernel_clock = choice.and_then(|c| c.clock) == Some(ClockBasis::Measured);
    Some(m)
}

/// The machine choice as a link carries it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewChoice {
    pub chosen: Option<Chosen>,
    pub clock: Option<ClockBasis>,
    /// What the profile said about its device (name, vendor, architecture, SM count).
    pub device: Option<Device>,
    pub measured_sm_clock_hz: Option<f64>,
}

impl ViewChoice {
    /// The part of a choice a link keeps: the device's identity, not its peaks or clocks (the
    /// machine carries the ceilings).
    pub fn of(chosen: Chosen, clock: ClockBasis, device: Option<&Device>, measured_sm_clock_hz: Option<f64>) -> ViewChoice {
        let device = device.map(|d| Device { name: d.name.clone(), vendor: d.vendor, arch: d.arch.clone(), sm_count: d.sm_count, ..Device::default() });
        ViewChoice { chosen: Some(chosen), clock: Some(clock), device, measured_sm_clock_hz }
    }
}

impl Default for View {
    fn default() -> Self {
        View {
            machine_id: String::new(),
            custom_machine: None,
            mode: Mode::Classic.id().to_string(),
            compute: None,
            hidden_levels: Vec::new(),
            zoom: None,
            filter: String::new(),
            top_n: None,
            selected: None,
            theme: None,
            word_bytes: 8,
            kernels: Vec::new(),
            choice: None,
            all_roofs: false,
            color_by: None,
            runs: None,
        }
    }
}

/// A kernel as it travels in a link: the aggregated counters, not the launches or the CSV.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharedKernel {
    pub name: String,
    pub launches: u64,
    pub counters: Counters,
}

impl From<&KernelProfile> for SharedKernel {
    fn from(k: &KernelProfile) -> Self {
        SharedKernel { name: k.name.clone(), launches: k.launches, counters: k.counters.clone() }
    }
}

impl From<&SharedKernel> for KernelProfile {
    fn from(k: &SharedKernel) -> Self {
        KernelProfile { name: k.name.clone(), launches: k.launches, counters: k.counters.clone() }
    }
}

/// The id of a memory level in [`View::hidden_levels`].
pub fn level_id(l: Level) -> &'static str {
    match l {
        Level::L1 => "l1",
        Level::Shared => "shared",
        Level::L2 => "l2",
        Level::L3 => "l3",
        Level::Dram => "dram",
    }
}

/// The id of a compute kind in [`View::compute`].
pub fn compute_id(k: ComputeKind) -> &'static str {
    match k {
        ComputeKind::Fp64 => "fp64",
        ComputeKind::Fp32 => "fp32",
        ComputeKind::Fp16 => "fp16",
        ComputeKind::Tensor => "tensor",
        ComputeKind::Int => "int",
    }
}

/// The id of a theme in [`View::theme`].
pub fn theme_id(t: Theme) -> &'static str {
    match t {
        Theme::Light => "light",
        Theme::Dark => "dark",
    }
}

impl View {
    /// A view of these kernels on this machine, every setting at its default.
    pub fn new(machine: &Machine, kernels: &[KernelProfile]) -> View {
        let mut v = View { kernels: kernels.iter().map(SharedKernel::from).collect(), ..View::default() };
        v.set_machine(machine);
        v
    }

    /// Records `m`: by id alone when it is exactly the catalogue machine of that id (a short
    /// link), else in full. A catalogue machine at another clock or basis is "edited": the
    /// reader's build might otherwise apply its own, different adjustments.
    ///
    /// Whether each kernel is judged at its own clock ([`Machine::per_kernel_clock`]) is not
    /// recorded with the machine (v1 links have no field for it): it follows from the choice's
    /// clock, measured or not ([`View::machine`]).
    pub fn set_machine(&mut self, m: &Machine) {
        let m = Machine { per_kernel_clock: false, ..m.clone() };
        self.machine_id = m.id.clone();
        self.custom_machine = match catalogue::by_id(&m.id) {
            Some(c) if c == m => None,
            _ => Some(m),
        };
    }

    /// The machine to draw: the custom one, else the catalogue's; `None` when the id is not
    /// in this build's catalogue (the app then says so and keeps its own). Each kernel is
    /// judged at its own measured clock when the choice's clock is the measured one.
    pub fn machine(&self) -> Option<Machine> {
        machine_of(self.custom_machine.as_ref(), &self.machine_id, self.choice.as_ref())
    }

    pub fn kernel_profiles(&self) -> Vec<KernelProfile> {
        self.kernels.iter().map(KernelProfile::from).collect()
    }

    /// The chart mode; an unknown id (a newer build's mode) falls back to classic.
    pub fn chart_mode(&self) -> Mode {
        Mode::from_id(&self.mode).unwrap_or_default()
    }

    /// What the dot colours mean: the link's choice if this build knows it, else the default.
    pub fn colors(&self) -> ColorBy {
        self.color_by.as_deref().and_then(ColorBy::from_id).unwrap_or_default()
    }

    /// The compute roof, if one was chosen and this build knows it.
    pub fn compute_kind(&self) -> Option<ComputeKind> {
        let id = self.compute.as_deref()?;
        [ComputeKind::Fp64, ComputeKind::Fp32, ComputeKind::Fp16, ComputeKind::Tensor, ComputeKind::Int].into_iter().find(|&k| compute_id(k) == id)
    }

    /// The hidden levels this build knows (unknown ids are ignored).
    pub fn hidden(&self) -> Vec<Level> {
        Level::ALL.into_iter().filter(|&l| self.hidden_levels.iter().any(|h| h == level_id(l))).collect()
    }

    /// The LD/ST word size of the instruction charts: 4 bytes is 32-bit, anything else 64-bit.
    pub fn word(&self) -> WordSize {
        if self.word_bytes == 4 {
            WordSize::Bits32
        } else {
            WordSize::Bits64
        }
    }

    /// The theme, if one was chosen and this build knows it.
    pub fn chart_theme(&self) -> Option<Theme> {
        match self.theme.as_deref()? {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_machines_travel_by_id_edited_ones_in_full() {
        let v100 = catalogue::v100();
        let v = View::new(&v100, &[]);
        assert_eq!((v.machine_id.as_str(), v.custom_machine.is_none()), ("v100", true));
        assert_eq!(v.machine(), Some(v100.clone()));
        let base = v100.at_clock(1312e6);
        let v = View::new(&base, &[]);
        assert_eq!(v.custom_machine.as_ref(), Some(&base));
        assert_eq!(v.machine(), Some(base));
        assert_eq!(View { machine_id: "nope".into(), ..View::default() }.machine(), None);
    }

    #[test]
    fn typed_accessors_ignore_what_they_do_not_know() {
        let v = View {
            mode: "walls".into(),
            compute: Some("tensor".into()),
            hidden_levels: vec!["l2".into(), "hbm9".into()],
            theme: Some("dark".into()),
            ..View::default()
        };
        assert_eq!(v.chart_mode(), Mode::Walls);
        assert_eq!(v.compute_kind(), Some(ComputeKind::Tensor));
        assert_eq!(v.hidden(), vec![Level::L2]);
        assert_eq!(v.chart_theme(), Some(Theme::Dark));
        let v = View { mode: "future".into(), theme: Some("sepia".into()), ..View::default() };
        assert_eq!((v.chart_mode(), v.chart_theme()), (Mode::Classic, None));
        for l in Level::ALL {
            assert_eq!(serde_json::to_value(l).ok(), Some(serde_json::Value::from(level_id(l))));
        }
    }
}
