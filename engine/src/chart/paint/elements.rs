//! Scene shapes as plotters elements: [`One`] draws one shape with plotters' own elements
//! ([`draw_shape`]), [`Run`] hands a run of dots and lines to [`ChartBackend::draw_run`].
//!
//! Both take their coordinates from the shapes, not from the drawing area's point mapping:
//! plotters clamps mapped points to the area, which would bend a line that leaves it.

use super::{clip, rgb, to_units, ChartBackend};
use crate::chart::scene::{arrow_geometry, Anchor, Color, Shape};
use plotters::element::{Circle, DashedPathElement, Drawable, PathElement, PointCollection, Polygon};
use plotters::style::{Color as _, ShapeStyle};
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// Dash and gap of a dashed line, CSS pixels (as the canvas' `setLineDash([4, 3])` before).
const DASH_PX: f64 = 4.0;
const GAP_PX: f64 = 3.0;

/// One text of a scene in backend units (see [`ChartBackend::draw_scene_text`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneText<'a> {
    pub text: &'a str,
    /// The anchor point on the baseline, units.
    pub at: BackendCoord,
    /// Font size, units (CSS pixels × units per pixel).
    pub size: f64,
    pub anchor: Anchor,
    /// Clockwise, degrees.
    pub rotate_deg: f64,
    pub color: Color,
}

/// One shape, drawn by [`draw_shape`].
pub(super) struct One<'a> {
    pub shape: &'a Shape,
    pub units_per_px: f64,
}

/// A run of dots and solid lines, drawn by [`ChartBackend::draw_run`].
pub(super) struct Run<'a> {
    pub shapes: &'a [Shape],
    pub units_per_px: f64,
}

/// The elements carry their own coordinates (see the module docs): no points to map.
macro_rules! no_points {
    ($t:ident) => {
        impl<'a, 'b> PointCollection<'a, BackendCoord> for &'a $t<'b> {
            type Point = &'a BackendCoord;
            type IntoIter = std::iter::Empty<&'a BackendCoord>;
            fn point_iter(self) -> Self::IntoIter {
                std::iter::empty()
            }
        }
    };
}
no_points!(One);
no_points!(Run);

impl<DB: ChartBackend> Drawable<DB> for One<'_> {
    fn draw<I: Iterator<Item = BackendCoord>>(&self, _: I, backend: &mut DB, _: (u32, u32)) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        draw_shape(backend, self.shape, self.units_per_px)
    }
}

impl<DB: ChartBackend> Drawable<DB> for Run<'_> {
    fn draw<I: Iterator<Item = BackendCoord>>(&self, _: I, backend: &mut DB, _: (u32, u32)) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        backend.draw_run(self.shapes, self.units_per_px)
    }
}

/// A scene point in units; `None` when not finite.
fn point(p: (f64, f64), u: f64) -> Option<BackendCoord> {
    Some((to_units(p.0, u)?, to_units(p.1, u)?))
}

/// A length (radius, line width) in units, rounded, never negative; `None` when not finite.
fn length(v: f64, u: f64) -> Option<u32> {
    let v = (v * u).round();
    v.is_finite().then(|| v.max(0.0) as u32)
}

fn style(c: Color, filled: bool, stroke_width: u32) -> ShapeStyle {
    ShapeStyle { color: rgb(c).to_rgba(), filled, stroke_width }
}

/// Draws one shape with plotters' elements, at `u` units per CSS pixel: a line as a
/// `PathElement` (dashed: `DashedPathElement`, 4 px dashes, 3 px gaps), a dot as a filled
/// `Circle` and then its outline (the canvas' fill-then-stroke), an arrow as its shaft
/// (the backend's line) and a `Polygon` head, a rectangle as the backend's filled rect, a text
/// through [`ChartBackend::draw_scene_text`].
/// Shapes with a non-finite coordinate or size are skipped.
pub fn draw_shape<DB: ChartBackend>(db: &mut DB, shape: &Shape, u: f64) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
    let size = db.get_size();
    match shape {
        Shape::Line { points, color, width, dash } => {
            let (Some(pts), Some(w)) = (points.iter().map(|&p| point(p, u)).collect::<Option<Vec<_>>>(), length(*width, u)) else { return Ok(()) };
            if pts.len() < 2 {
                return Ok(());
            }
            let st = style(*color, false, w);
            if *dash {
                // plotters draws every dash as a path: only the pieces on the canvas, so a
                // line from hostile data cannot become millions of dashes.
                let (on, off) = ((DASH_PX * u).round() as u32, (GAP_PX * u).round() as u32);
                for piece in clip::polyline(&pts, size) {
                    DashedPathElement::new(piece.clone(), on, off, st).draw(piece.into_iter(), db, size)?;
                }
                Ok(())
            } else {
                PathElement::new(pts.clone(), st).draw(pts.into_iter(), db, size)
            }
        }
        Shape::Circle { cx, cy, r, fill, stroke, width } => {
            let (Some(c), Some(r)) = (point((*cx, *cy), u), length(*r, u)) else { return Ok(()) };
            if let Some(f) = fill {
                Circle::new(c, r, style(*f, true, 0)).draw(std::iter::once(c), db, size)?;
            }
            if let (Some(s), Some(w)) = (stroke, length(*width, u)) {
                Circle::new(c, r, style(*s, false, w)).draw(std::iter::once(c), db, size)?;
            }
            Ok(())
        }
        Shape::Text { x, y, text, color, size: px, anchor, rotate_deg } => {
            let Some(at) = point((*x, *y), u) else { return Ok(()) };
            if !(px.is_finite() && rotate_deg.is_finite()) {
                return Ok(());
            }
            db.draw_scene_text(&SceneText { text, at, size: px * u, anchor: *anchor, rotate_deg: *rotate_deg, color: *color })
        }
        Shape::Arrow { from, to, color, width, trim } => {
            // The shaft stops at the head's base, so a wide line does not poke past the tip.
            let Some(g) = arrow_geometry(*from, *to, *width, *trim) else { return Ok(()) };
            let (Some(start), Some(base), Some(w)) = (point(g.start, u), point(g.base, u), length(*width, u)) else { return Ok(()) };
            let Some(head) = g.head.iter().map(|&p| point(p, u)).collect::<Option<Vec<_>>>() else { return Ok(()) };
            db.draw_line(start, base, &style(*color, false, w))?;
            Polygon::new(head.clone(), style(*color, true, 0)).draw(head.into_iter(), db, size)
        }
        Shape::Rect { x, y, w, h, fill } => {
            let (Some(a), Some(b)) = (point((*x, *y), u), point((x + w, y + h), u)) else { return Ok(()) };
            db.draw_rect(a, b, &style(*fill, true, 0), true)
        }
    }
}
