//! The one painter of a [`Scene`]: every output (the app's canvas, the PNG export, the SVG
//! export and the CLI's `plot`) draws the scene through [`paint`] onto a plotters
//! [`DrawingArea`], with plotters' elements (`Circle`, `PathElement`, `DashedPathElement`,
//! `Polygon`) on plotters' backends (plotters-canvas's `CanvasBackend` in the app,
//! plotters-svg's `SVGBackend` in [`super::svg`]).
//!
//! The engine keeps what plotters does not know: the layout (roofs, walls, ridge points,
//! non-overlapping labels, hit areas, all in the scene), and two drawing operations that a
//! plotters backend cannot express, added by [`ChartBackend`]:
//!
//! - **Text at any angle on its alphabetic baseline.** plotters' `FontTransform` turns text by
//!   quarter turns only and its `VPos` knows top/centre/bottom, but a roof's label follows the
//!   roof's slope and the scene places text by its baseline ([`SceneText`]).
//! - **Runs of many dots and lines** ([`ChartBackend::draw_run`]). By default a run is drawn
//!   shape by shape with plotters' elements, as everything else; a backend may draw it its own
//!   way (the app's canvas rasterises it with [`super::raster`] into one image, because the
//!   browser's per-path cost cannot redraw 30,000 dots within a frame: docs/PERFORMANCE.md).
//!
//! **Units.** plotters' backend coordinates are whole numbers (`(i32, i32)`, `u32` radii and
//! line widths). The painter draws in units of `1 / units_per_px` CSS pixel ([`UNITS_PER_PX`]:
//! quarter pixels), so a dot's radius or a line's position keeps its sub-pixel value; each
//! backend maps units to its pixels (the canvas by its transform, the SVG by its `viewBox`).

mod clip;
mod elements;

pub use elements::{draw_shape, SceneText};

use super::raster;
use super::scene::{Color, Scene, Shape};
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind};
use plotters::style::RGBColor;
use plotters_backend::{DrawingBackend, DrawingErrorKind};

/// Backend units per CSS pixel (see the module's "Units").
pub const UNITS_PER_PX: f64 = 4.0;

/// A plotters backend that can also draw what a chart needs beyond plotters' API (see the
/// module docs).
pub trait ChartBackend: DrawingBackend + Sized {
    /// Draws one text: its baseline's start, middle or end at `text.at`, turned
    /// `text.rotate_deg` clockwise about that point.
    fn draw_scene_text(&mut self, text: &SceneText) -> Result<(), DrawingErrorKind<Self::ErrorType>>;

    /// Draws a run of [`raster::rasterizable`] shapes (dots, solid lines), in order, the scene
    /// being at `units_per_px` units per CSS pixel. The default draws them one by one with
    /// plotters' elements ([`draw_shape`]).
    fn draw_run(&mut self, shapes: &[Shape], units_per_px: f64) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        for s in shapes {
            draw_shape(self, s, units_per_px)?;
        }
        Ok(())
    }
}

/// Paints `scene` on `area` (whose backend is `units_per_px` units per CSS pixel): the
/// background, then every shape in order, long runs of dots and solid lines
/// ([`raster::plan`]) through [`ChartBackend::draw_run`]. Does not `present` the area.
pub fn paint<DB: ChartBackend>(area: &DrawingArea<DB, Shift>, scene: &Scene, units_per_px: f64) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let u = if units_per_px.is_finite() && units_per_px > 0.0 { units_per_px } else { 1.0 };
    area.fill(&rgb(scene.background))?;
    for (range, run) in raster::plan(&scene.shapes) {
        let shapes = &scene.shapes[range];
        if run {
            area.draw(&elements::Run { shapes, units_per_px: u })?;
        } else {
            for shape in shapes {
                area.draw(&elements::One { shape, units_per_px: u })?;
            }
        }
    }
    Ok(())
}

/// A scene colour as plotters'.
pub fn rgb(c: Color) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// `css` pixels in backend units, rounded; `None` when not finite. Saturates at the `i32`
/// range (the `as` cast), so no input overflows a backend's arithmetic.
pub fn to_units(css: f64, units_per_px: f64) -> Option<i32> {
    let v = (css * units_per_px).round();
    v.is_finite().then_some(v as i32)
}

/// A canvas or document of `css` pixels in backend units: at least 1, at most 2²⁴ (so sizes
/// from hostile input stay within plotters' `i32` coordinates).
pub fn size_units(css: f64, units_per_px: f64) -> u32 {
    let v = (css * units_per_px).round();
    if v.is_finite() {
        v.clamp(1.0, (1u32 << 24) as f64) as u32
    } else {
        1
    }
}
