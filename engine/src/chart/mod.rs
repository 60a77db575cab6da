//! Charts as renderer-independent scenes.
//!
//! [`build`] turns kernels, a machine and the view settings into a [`Scene`]: shapes in pixel
//! coordinates (lines, circles, text) plus the hit areas of the dots. The app paints a scene on
//! a canvas, [`svg::render`] writes it as SVG (CLI `plot`, export), so both show the same chart.

pub mod classic;
pub mod labels;
pub mod scale;
pub mod scene;
pub mod svg;

pub use scale::LogScale;
pub use scene::{Anchor, Color, Hit, Scene, Shape, Theme};

use crate::model::{ComputeKind, Machine};
use crate::profile::KernelProfile;

/// Data ranges of a zoomed view: `[min, max]` on each axis, in the axes' data units.
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
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Classic, Mode::Hierarchical, Mode::Instruction, Mode::Walls];

    /// The id used in links and the CLI (`classic`, …).
    pub fn id(self) -> &'static str {
        match self {
            Mode::Classic => "classic",
            Mode::Hierarchical => "hierarchical",
            Mode::Instruction => "instruction",
            Mode::Walls => "walls",
        }
    }

    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
    }
}

/// Everything a chart depends on.
pub struct ChartInput<'a> {
    pub mode: Mode,
    pub kernels: &'a [KernelProfile],
    pub machine: &'a Machine,
    /// Compute ceiling to draw; `None` picks the precision with most FLOPs in the data.
    pub compute: Option<ComputeKind>,
    pub selected: Option<usize>,
    /// CSS pixels.
    pub width: f64,
    pub height: f64,
    pub theme: Theme,
    pub zoom: Option<Zoom>,
}

/// Builds the scene of `input.mode` (modes not implemented yet fall back to classic).
pub fn build(input: &ChartInput) -> Scene {
    match input.mode {
        Mode::Classic | Mode::Hierarchical | Mode::Instruction | Mode::Walls => classic::build(input),
    }
}
