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

/// Everything a chart depends on.
pub struct ChartInput<'a> {
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

/// Builds the scene of the classic roofline (other modes arrive with the app issue).
pub fn build(input: &ChartInput) -> Scene {
    classic::build(input)
}
