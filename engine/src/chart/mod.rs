//! Charts as renderer-independent scenes.
//!
//! [`build`] turns kernels, a machine and the view settings into a [`Scene`]: shapes in pixel
//! coordinates (lines, circles, text) plus the hit areas of the dots. [`paint::paint`] draws a
//! scene with plotters on any plotters backend that is a [`paint::ChartBackend`]: the app's
//! canvas (plotters-canvas) and [`svg::render`] (plotters-svg: CLI `plot`, SVG export), so every
//! output shows the same chart.
//!
//! One file per mode ([`classic`], [`hierarchical`], [`instruction`], [`walls`],
//! [`transfers`]); what they share is in [`frame`] (layout, axes, legend), [`roofs`]
//! (ceilings, walls, ridge marks and their labels), [`dots`] (markers, sizes, hits) and
//! [`labels`] (non-overlapping placement). Scenes are deterministic: the same input gives the
//! same shapes in the same order, so two browsers paint the same pixels.

pub mod binding;
pub mod cache;
pub mod caption;
pub mod classic;
pub mod colors;
pub mod compare;
pub mod controls;
pub mod dots;
pub mod flop_roofs;
pub mod frame;
pub mod hierarchical;
pub mod hit_grid;
pub mod instruction;
pub mod kernel_labels;
pub mod labels;
pub mod paint;
pub mod places;
pub mod preview;
pub mod roofs;
pub mod raster;
pub mod scale;
pub mod scene;
pub mod strip;
pub mod svg;
#[cfg(test)]
mod test_rng;
pub mod transfers;
pub mod walls;

pub use cache::ModelCache;
pub use colors::ColorBy;
pub use compare::RunRef;
pub use scale::LogScale;
pub use scene::{arrow_geometry, ArrowGeometry, Anchor, Color, Hit, Marker, RoofKey, Scene, Shape, Theme};

use crate::domain::Transfer;
use frame::{Builder, LegendItem};
use crate::model::{ComputeKind, Level, Machine};
use crate::domain::profile::KernelProfile;
use std::borrow::Cow;

/// Data ranges of a zoomed view: `[min, max]` on each axis, in the axes' data units (base
/// units: FLOP/byte and FLOP/s, instructions per transaction and instructions/s, bytes and
/// bytes/s). A range that is not positive, finite and increasing is ignored (auto range).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Zoom {
    pub x: [f64; 2],
    pub y: [f64; 2],
}

/// Which roofline the chart shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// FLOP/s vs FLOP/byte at DRAM, one compute roof.
    #[default]
    Classic,
    /// One dot per memory level per kernel, each against its own bandwidth roof.
    Hierarchical,
    /// Warp GIPS vs warp instructions per transaction (Ding & Williams).
    Instruction,
    /// LD/ST intensity vs memory walls (Ding & Williams).
    Walls,
    /// Host↔device copies and memsets against the link (PCIe, NVLink) or memory they cross.
    Transfers,
}

impl Mode {
    pub const ALL: [Mode; 5] = [Mode::Classic, Mode::Hierarchical, Mode::Instruction, Mode::Walls, Mode::Transfers];

    /// The id used in links and the CLI (`classic`, …).
    pub fn id(self) -> &'static str {
        match self {
            Mode::Classic => "classic",
            Mode::Hierarchical => "hierarchical",
            Mode::Instruction => "instruction",
            Mode::Walls => "walls",
            Mode::Transfers => "transfers",
        }
    }

    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
    }
}

/// The word size of a unit-stride global access, which sets where the unit-stride memory wall
/// stands: 32 threads × 4 bytes = 4 sectors per LD/ST (intensity 1/4), × 8 bytes = 8 sectors
/// (1/8) (Ding & Williams §III-A: "1/8 (FP64) and 1/4 (FP32, INT32)").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum WordSize {
    /// FP32, INT32: unit-stride wall at 1/4.
    #[default]
    Bits32,
    /// FP64: unit-stride wall at 1/8.
    Bits64,
}

/// Everything a chart depends on. Build it with [`ChartInput::new`] and the `with_…` setters;
/// the fields stay public for reading.
pub struct ChartInput<'a> {
    pub mode: Mode,
    pub kernels: &'a [KernelProfile],
    pub machine: &'a Machine,
    /// The compute roof whose ridge points are marked (classic: the one compute roof); `None`
    /// picks the precision with most FLOPs in the data.
    pub compute: Option<ComputeKind>,
    /// Index of the highlighted kernel (ring around its dots, bold link line); its binding
    /// roof is drawn and marked in the charts that judge it ([`binding`]).
    pub selected: Option<usize>,
    /// CSS pixels.
    pub width: f64,
    pub height: f64,
    pub theme: Theme,
    /// Data ranges to show instead of the automatic ones; every mode honours it.
    pub zoom: Option<Zoom>,
    /// Memory levels switched off: their dots, bandwidth roofs and walls are not drawn
    /// (hierarchical, instruction; in walls mode `L1` hides the global walls and LD/ST dots,
    /// `Shared` the shared ones). Classic ignores it (its one roof is DRAM).
    pub hidden_levels: &'a [Level],
    /// Compute roofs switched off (classic, hierarchical). The roof of `compute` stays.
    pub hidden_compute: &'a [ComputeKind],
    /// Draw every compute roof of the machine, not only those of the pipes and data types the
    /// kernels use (classic, hierarchical).
    pub all_roofs: bool,
    /// Whether to draw ceilings (roofs, ridge marks) at all; off shows the dots alone.
    pub show_ceilings: bool,
    /// Whether walls mode draws its memory walls (the LD/ST dots stay).
    pub show_walls: bool,
    /// Walls mode: which unit-stride wall to draw.
    pub word: WordSize,
    /// Copies and memsets, for [`Mode::Transfers`] (the dataset's `transfers`).
    pub transfers: &'a [Transfer],
    /// Earlier runs to compare with, oldest first; `kernels` is the latest run. Classic,
    /// hierarchical and instruction charts draw each earlier run's points as open markers and
    /// arrows from run to run (kernels paired by `compare::pair` or the run's own pairing:
    /// [`compare`]). Empty: one run.
    pub runs: &'a [RunRef<'a>],
    /// How the runs are drawn: set with them ([`compare::Layer`] says why).
    runs_layer: Option<&'static compare::Layer>,
    /// What the classic chart's dot colours mean ([`colors`]).
    pub color_by: ColorBy,
    /// The kernels' display names, parallel to `kernels`, for the labels and the legend
    /// (the app computes them once per dataset); `None`: computed here
    /// ([`crate::domain::short_names::distinct_display_names`]).
    pub names: Option<&'a [String]>,
    /// The model's results for `kernels` on `machine`, kept between redraws ([`cache`]);
    /// used only where it is for them, so it changes the time a scene takes, not the scene.
    pub cache: Option<&'a ModelCache>,
}

impl<'a> ChartInput<'a> {
    /// A classic chart of `kernels` on `machine`, `width` × `height` CSS pixels, with the
    /// defaults: light theme, automatic ranges and compute roof, nothing selected or hidden,
    /// ceilings and walls shown, 32-bit words, no transfers, no earlier runs, dots coloured
    /// by precision, names computed.
    pub fn new(kernels: &'a [KernelProfile], machine: &'a Machine, width: f64, height: f64) -> Self {
        ChartInput {
            mode: Mode::Classic,
            kernels,
            machine,
            compute: None,
            selected: None,
            width,
            height,
            theme: Theme::Light,
            zoom: None,
            hidden_levels: &[],
            hidden_compute: &[],
            all_roofs: false,
            show_ceilings: true,
            show_walls: true,
            word: WordSize::Bits32,
            transfers: &[],
            runs: &[],
            runs_layer: None,
            color_by: ColorBy::Precision,
            names: None,
            cache: None,
        }
    }

    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    pub fn with_compute(mut self, compute: Option<ComputeKind>) -> Self {
        self.compute = compute;
        self
    }

    pub fn with_selected(mut self, selected: Option<usize>) -> Self {
        self.selected = selected;
        self
    }

    pub fn with_theme(mut self, theme: Theme) -> Self {
        self.theme = theme;
        self
    }

    pub fn with_zoom(mut self, zoom: Option<Zoom>) -> Self {
        self.zoom = zoom;
        self
    }

    pub fn with_hidden_levels(mut self, levels: &'a [Level]) -> Self {
        self.hidden_levels = levels;
        self
    }

    pub fn with_hidden_compute(mut self, kinds: &'a [ComputeKind]) -> Self {
        self.hidden_compute = kinds;
        self
    }

    pub fn with_all_roofs(mut self, all: bool) -> Self {
        self.all_roofs = all;
        self
    }

    pub fn with_ceilings(mut self, show: bool) -> Self {
        self.show_ceilings = show;
        self
    }

    pub fn with_walls(mut self, show: bool) -> Self {
        self.show_walls = show;
        self
    }

    pub fn with_word(mut self, word: WordSize) -> Self {
        self.word = word;
        self
    }

    pub fn with_transfers(mut self, transfers: &'a [Transfer]) -> Self {
        self.transfers = transfers;
        self
    }

    /// Earlier runs, oldest first (see [`ChartInput::runs`]).
    pub fn with_runs(mut self, runs: &'a [RunRef<'a>]) -> Self {
        self.runs = runs;
        self.runs_layer = Some(&compare::LAYER);
        self
    }

    /// The earlier runs' point coordinates, for the automatic ranges ([`compare::extent`]).
    fn runs_extent(&self) -> (Vec<f64>, Vec<f64>) {
        self.runs_layer.map_or_else(|| (Vec::new(), Vec::new()), |l| (l.extent)(self))
    }

    /// The legend entry of the earlier runs ([`compare::legend`]).
    fn runs_legend(&self) -> Option<LegendItem> {
        self.runs_layer.and_then(|l| (l.legend)(self))
    }

    /// Draws the earlier runs ([`compare::draw`]).
    fn draw_runs(&self, b: &mut Builder, colors: Option<&[Color]>) {
        if let Some(l) = self.runs_layer {
            (l.draw)(b, self, colors);
        }
    }

    pub fn with_color_by(mut self, by: ColorBy) -> Self {
        self.color_by = by;
        self
    }

    /// The kernels' display names (see [`ChartInput::names`]).
    pub fn with_names(mut self, names: &'a [String]) -> Self {
        self.names = Some(names);
        self
    }

    /// The model's results kept from an earlier redraw (see [`ChartInput::cache`]).
    pub fn with_cache(mut self, cache: &'a ModelCache) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The cache, when it is for these kernels on this machine.
    pub fn cache(&self) -> Option<&'a ModelCache> {
        self.cache.filter(|c| c.is_for(self.kernels, self.machine))
    }

    /// Each kernel's share of the run time ([`dots::time_shares`]), from the cache if it has
    /// them.
    pub fn time_shares(&self) -> Cow<'a, [f64]> {
        match self.cache() {
            Some(c) => Cow::Borrowed(c.shares.as_slice()),
            None => Cow::Owned(dots::time_shares(self.kernels)),
        }
    }

    /// Whether a level is switched on.
    pub fn shows_level(&self, level: Level) -> bool {
        !self.hidden_levels.contains(&level)
    }
}

/// Builds the scene of `input.mode`.
pub fn build(input: &ChartInput) -> Scene {
    match input.mode {
        Mode::Classic => classic::build(input),
        Mode::Hierarchical => hierarchical::build(input),
        Mode::Instruction => instruction::build(input),
        Mode::Walls => walls::build(input),
        Mode::Transfers => transfers::build(input),
    }
}
