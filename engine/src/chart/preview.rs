//! A gesture's frames drawn from the last exact image (the page's wheel zoom and drag pan).
//!
//! Both axes are logarithmic, so a zoom or a pan is, in pixels, a scale and a shift along
//! each axis: a pixel of the image drawn with range `from` lies, for range `to`, at
//! `scale · px + offset` ([`AxisMove`]). While a chart whose exact redraw takes longer than a
//! frame is zoomed or panned, the page draws each frame as the last exact image moved that
//! way (the plot in both axes, the tick labels of each axis along it: [`Preview::bands`]),
//! and draws the exact chart once the input pauses. Plotly's drag and scroll zoom do the same
//! (the plot layer moved by a transform, redrawn once the gesture ends).
//!
//! A move is drawn only while it keeps most of the image: scaled by at most [`MAX_SCALE`]
//! either way and covering at least [`MIN_COVER`] of the plot ([`Preview::between`]);
//! farther, the page draws the exact chart, which becomes the image the next frames move.

use super::frame::FONT_PX;
use super::Zoom;

/// The largest zoom, in or out, drawn by scaling the image: beyond it dots and text are too
/// blurred or too small to stand for the chart.
pub const MAX_SCALE: f64 = 2.0;
/// The least share of the plot that the moved image must cover; the rest is blank.
pub const MIN_COVER: f64 = 0.5;

/// Where a pixel of one axis moves: `new_px = scale · old_px + offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisMove {
    pub scale: f64,
    pub offset: f64,
}

impl AxisMove {
    /// The move of an axis drawn across pixels `px0..px1` (`px0` is the range's minimum, so
    /// `px0 > px1` for a y axis) from data range `from` to `to`; `None` unless both ranges are
    /// positive, finite and increasing.
    pub fn between(from: [f64; 2], to: [f64; 2], px0: f64, px1: f64) -> Option<AxisMove> {
        let logs = |r: [f64; 2]| (r[0] > 0.0 && r[1] > r[0] && r[1].is_finite()).then(|| (r[0].log10(), r[1].log10()));
        let ((f0, f1), (t0, t1)) = (logs(from)?, logs(to)?);
        // A value at log L is at px0 + (L − lo) / (hi − lo) · (px1 − px0) for either range.
        let scale = (f1 - f0) / (t1 - t0);
        let offset = px0 + (f0 - t0) / (t1 - t0) * (px1 - px0) - scale * px0;
        (scale.is_finite() && offset.is_finite()).then_some(AxisMove { scale, offset })
    }

    /// A pixel's place after the move.
    pub fn apply(&self, px: f64) -> f64 {
        self.scale * px + self.offset
    }

    /// The share of the pixels `a..b` (either order) that the moved `a..b` covers.
    pub fn cover(&self, a: f64, b: f64) -> f64 {
        let (lo, hi) = (a.min(b), a.max(b));
        let (m0, m1) = (self.apply(a), self.apply(b));
        let (mlo, mhi) = (m0.min(m1), m0.max(m1));
        if hi <= lo {
            return 0.0;
        }
        ((hi.min(mhi) - lo.max(mlo)) / (hi - lo)).max(0.0)
    }
}

/// A rectangle `[left, top, right, bottom]`, CSS pixels.
pub type Rect = [f64; 4];

/// A part of the image and how it moves: the source rectangle in the last exact image, which
/// is drawn at the rectangle it moves to, clipped to `clip` ([`Band::visible`]) over the
/// chart's background.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub source: Rect,
    pub target: Rect,
    pub clip: Rect,
}

impl Band {
    /// The part of the moved image inside the clip: `(source, target)` rectangles, or `None`
    /// when none of it is. Drawing the source part at the target part is drawing the whole
    /// source at [`Band::target`] clipped to [`Band::clip`], without a clip path.
    pub fn visible(&self) -> Option<(Rect, Rect)> {
        let (s, t, c) = (self.source, self.target, self.clip);
        let v = [t[0].max(c[0]), t[1].max(c[1]), t[2].min(c[2]), t[3].min(c[3])];
        if !(v[0] < v[2] && v[1] < v[3]) {
            return None;
        }
        // Target pixels back to source pixels, along each axis.
        let back = |p: f64, t0: f64, t1: f64, s0: f64, s1: f64| s0 + (p - t0) * (s1 - s0) / (t1 - t0);
        let src = [back(v[0], t[0], t[2], s[0], s[2]), back(v[1], t[1], t[3], s[1], s[3]), back(v[2], t[0], t[2], s[0], s[2]), back(v[3], t[1], t[3], s[1], s[3])];
        Some((src, v))
    }
}

/// How a frame of a gesture moves the last exact image, drawn with ranges `from` over
/// `plot`, to show ranges `to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preview {
    pub plot: Rect,
    pub x: AxisMove,
    pub y: AxisMove,
}

impl Preview {
    /// The move from `from` to `to`, or `None` when it is too far to stand for the chart:
    /// scaled by more than [`MAX_SCALE`] or covering less than [`MIN_COVER`] of the plot on
    /// either axis (the page then draws the exact chart).
    pub fn between(plot: Rect, from: Zoom, to: Zoom) -> Option<Preview> {
        let x = AxisMove::between(from.x, to.x, plot[0], plot[2])?;
        let y = AxisMove::between(from.y, to.y, plot[3], plot[1])?;
        let near = |m: &AxisMove, a: f64, b: f64| (1.0 / MAX_SCALE..=MAX_SCALE).contains(&m.scale) && m.cover(a, b) >= MIN_COVER;
        (near(&x, plot[0], plot[2]) && near(&y, plot[1], plot[3])).then_some(Preview { plot, x, y })
    }

    /// What a frame draws, in order, for a chart `width` wide: the plot's inside (its frame
    /// line stays where it is), moved along both axes; the x tick labels under it, moved
    /// along x; the y tick labels left of it, moved along y. The axis titles, the legend and
    /// the bandwidth strip do not move with the zoom and stay as they are.
    ///
    /// The bands follow [`super::frame::Builder::axes`]: x tick labels on a baseline 16 px
    /// under the plot, y tick labels ending 6 px left of it, both [`FONT_PX`] high; the y
    /// axis title is centred 16 px from the left edge.
    pub fn bands(&self, width: f64) -> [Band; 3] {
        let [l, t, r, b] = self.plot;
        let inside = [l + 1.0, t + 1.0, r - 1.0, b - 1.0];
        let moved = |[x0, y0, x1, y1]: Rect, x: Option<&AxisMove>, y: Option<&AxisMove>| {
            let (mx0, mx1) = x.map_or((x0, x1), |m| (m.apply(x0), m.apply(x1)));
            let (my0, my1) = y.map_or((y0, y1), |m| (m.apply(y0), m.apply(y1)));
            [mx0.min(mx1), my0.min(my1), mx0.max(mx1), my0.max(my1)]
        };
        // Glyphs of a 12 px font reach ≈ 10 px above their baseline and ≈ 3 px below it.
        let x_ticks = [0.0, b + 16.0 - FONT_PX + 1.0, width, b + 16.0 + 4.0];
        let y_ticks = [16.0 + FONT_PX / 2.0 + 2.0, t - FONT_PX, l - 1.0, b + 4.0 + 1.0];
        [
            Band { source: inside, target: moved(inside, Some(&self.x), Some(&self.y)), clip: inside },
            Band { source: x_ticks, target: moved(x_ticks, Some(&self.x), None), clip: x_ticks },
            Band { source: y_ticks, target: moved(y_ticks, None, Some(&self.y)), clip: y_ticks },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLOT: Rect = [64.0, 40.0, 864.0, 440.0];

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn a_zoom_about_the_middle_scales_about_the_middle_pixel() {
        // x 1..10 000 over 64..864 px (200 px a decade); zoomed to 10..1 000 (400 px a decade):
        // twice as wide, and 464 px (the log middle, 100) stays where it is.
        let m = AxisMove::between([1.0, 1e4], [10.0, 1e3], 64.0, 864.0).unwrap();
        assert!(close(m.scale, 2.0), "{m:?}");
        assert!(close(m.apply(464.0), 464.0));
        // 10 was at 264 px; it is now the left edge.
        assert!(close(m.apply(264.0), 64.0));
        // Half of the old image covers the plot twice as wide: it covers all of it.
        assert!(close(m.cover(64.0, 864.0), 1.0));
    }

    #[test]
    fn a_pan_shifts_by_the_pixels_of_the_shift_in_decades() {
        // y 1..1e4 over 440 (bottom) to 40 px (100 px a decade); the range moved up one decade:
        // every old pixel is 100 px lower on screen (larger y), and a quarter of the plot is blank.
        let m = AxisMove::between([1.0, 1e4], [10.0, 1e5], 440.0, 40.0).unwrap();
        assert!(close(m.scale, 1.0));
        assert!(close(m.offset, 100.0), "{m:?}");
        assert!(close(m.cover(40.0, 440.0), 0.75));
    }

    #[test]
    fn moves_too_far_are_not_previewed() {
        let from = Zoom { x: [1.0, 1e4], y: [1e9, 1e13] };
        // 1.25× in: a preview.
        let z = Zoom { x: [10f64.powf(0.4), 10f64.powf(3.6)], y: from.y };
        let p = Preview::between(PLOT, from, z).unwrap();
        assert!(close(p.x.scale, 1.25) && close(p.y.scale, 1.0));
        // 2.5× in on x: too blurred.
        let z = Zoom { x: [10f64.powf(1.2), 10f64.powf(2.8)], y: from.y };
        assert_eq!(Preview::between(PLOT, from, z), None);
        // Panned by three of four decades on y: a quarter of the plot covered.
        let z = Zoom { x: from.x, y: [1e12, 1e16] };
        assert_eq!(Preview::between(PLOT, from, z), None);
        // Panned by 1.9 of 4 decades on x: 52.5 % covered, still drawn.
        let z = Zoom { x: [10f64.powf(1.9), 10f64.powf(5.9)], y: from.y };
        assert!(Preview::between(PLOT, from, z).is_some());
        // A range that is not a range.
        let z = Zoom { x: [0.0, 1e4], y: from.y };
        assert_eq!(Preview::between(PLOT, from, z), None);
    }

    #[test]
    fn the_bands_move_the_plot_both_ways_and_each_axis_labels_along_it() {
        // x zoomed 2× about its middle (464 px), y shifted 100 px down.
        let from = Zoom { x: [1.0, 1e4], y: [1.0, 1e4] };
        let to = Zoom { x: [10.0, 1e3], y: [10.0, 1e5] };
        let p = Preview::between(PLOT, from, to).unwrap();
        let [inside, x_ticks, y_ticks] = p.bands(900.0);
        assert_eq!(inside.source, [65.0, 41.0, 863.0, 439.0]);
        assert_eq!(inside.clip, inside.source);
        // 65 → 2·65 − 464 = −334, 863 → 1262; 41 → 141, 439 → 539.
        assert_eq!(inside.target, [-334.0, 141.0, 1262.0, 539.0]);
        // The x labels' band (baselines at 456 px) moves along x only.
        assert_eq!(x_ticks.source, [0.0, 445.0, 900.0, 460.0]);
        assert_eq!(x_ticks.target, [-464.0, 445.0, 1336.0, 460.0]);
        // The y labels' band, right of the y title and left of the plot, along y only.
        assert_eq!(y_ticks.source, [24.0, 28.0, 63.0, 445.0]);
        assert_eq!(y_ticks.target, [24.0, 128.0, 63.0, 545.0]);
        // Inside the plot, the middle half of the old plot's width (2× wider) and its top
        // three quarters (shifted 100 of 398 px down) are drawn.
        let (src, dst) = inside.visible().unwrap();
        assert_eq!(dst, [65.0, 141.0, 863.0, 439.0]);
        assert_eq!(src, [264.5, 41.0, 663.5, 339.0]);
        // The y labels' band: the part still between its top and bottom.
        assert_eq!(y_ticks.visible().unwrap(), ([24.0, 28.0, 63.0, 345.0], [24.0, 128.0, 63.0, 445.0]));
        // A band moved wholly out of its clip draws nothing.
        let gone = Band { source: [0.0, 0.0, 10.0, 10.0], target: [20.0, 0.0, 30.0, 10.0], clip: [0.0, 0.0, 10.0, 10.0] };
        assert_eq!(gone.visible(), None);
    }
}
