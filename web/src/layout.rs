//! The chart's size in CSS pixels: its container's width, and the window's height below the
//! container's top, so that at 1366×768 the whole chart, axes included, is on the first screen;
//! between a flat 0.45 and a squarer 0.72 of the width (0.6 and 1.0 on screens under 600 px).
//! One rule for the app's chart (`app/src/chart_view.rs`) and the link chart drawn before the
//! app (`first/`), so the app's chart takes the link chart's place without a shift.

use web_sys::Element;

/// Widths the chart is drawn at, CSS pixels.
const MIN_WIDTH_PX: f64 = 280.0;
const MAX_WIDTH_PX: f64 = 1600.0;
/// Height ÷ width: the flattest and the squarest chart, on wide and on narrow (< 600 px)
/// screens; the smallest height.
const ASPECT_WIDE: (f64, f64) = (0.45, 0.72);
const ASPECT_NARROW: (f64, f64) = (0.6, 1.0);
const MIN_HEIGHT_PX: f64 = 240.0;
/// Room kept under the chart in the first screen, CSS pixels.
const BOTTOM_GAP_PX: f64 = 10.0;

/// The smallest height of an embed's chart, CSS pixels: a lower frame clips it.
const EMBED_MIN_HEIGHT_PX: f64 = 160.0;

/// The chart's (width, height) for the container `wrap`, from the page's current layout.
pub fn chart_size(wrap: &Element) -> (f64, f64) {
    let scroll_y = web_sys::window().and_then(|w| w.scroll_y().ok()).unwrap_or(0.0);
    let (width, top) = (wrap.client_width() as f64, wrap.get_bounding_client_rect().top() + scroll_y);
    if embedded(wrap) {
        embed_size_for(width, top, window_height_px())
    } else {
        size_for(width, top, window_height_px())
    }
}

/// Whether the page is an embed (`?embed`: `<html class="embed">`, set before the first paint
/// by public/first-paint.js; app/src/embed.rs).
fn embedded(wrap: &Element) -> bool {
    let root = wrap.owner_document().and_then(|d| d.document_element());
    root.is_some_and(|r| r.class_name().split_ascii_whitespace().any(|c| c == "embed"))
}

/// An embed's chart fills its frame (an iframe the embedding page sized) below `top_px`, at
/// any aspect: the page's flattest and squarest charts would leave part of the frame empty or
/// clip the chart.
pub fn embed_size_for(width_px: f64, top_px: f64, window_height_px: f64) -> (f64, f64) {
    (width_px.clamp(MIN_WIDTH_PX, MAX_WIDTH_PX), (window_height_px - top_px).max(EMBED_MIN_HEIGHT_PX).round())
}

/// The window's inner height, CSS px (768 where it cannot be read): what the chart's height
/// and the kernel table's window of rows (`app/src/kernel_table.rs`) fit.
pub fn window_height_px() -> f64 {
    web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|v| v.as_f64()).unwrap_or(768.0)
}

/// The rule itself: a container `width_px` wide whose top is `top_px` below the page's top, in
/// a window `window_height_px` high.
pub fn size_for(width_px: f64, top_px: f64, window_height_px: f64) -> (f64, f64) {
    let w = width_px.clamp(MIN_WIDTH_PX, MAX_WIDTH_PX);
    let (lo, hi) = if w < 600.0 { ASPECT_NARROW } else { ASPECT_WIDE };
    let h = (window_height_px - top_px - BOTTOM_GAP_PX).clamp((lo * w).max(MIN_HEIGHT_PX), (hi * w).max(MIN_HEIGHT_PX)).round();
    (w, h)
}

#[cfg(test)]
mod tests {
    use super::{embed_size_for, size_for};

    #[test]
    fn an_embed_fills_its_frame_below_the_bar() {
        // A 640 × 400 frame, the chart 28 px down: 400 − 28 = 372 px high. A 1000 × 300 frame:
        // 272 px, flatter (0.27) than the page's flattest chart (0.45 × 1000 = 450 px).
        assert_eq!(embed_size_for(640.0, 28.0, 400.0), (640.0, 372.0));
        assert_eq!(embed_size_for(1000.0, 28.0, 300.0), (1000.0, 272.0));
        // A frame lower than 160 px below the bar: 160, clipped by the frame.
        assert_eq!(embed_size_for(500.0, 28.0, 150.0), (500.0, 160.0));
    }

    #[test]
    fn wide_narrow_and_tiny_containers() {
        // 1200 × 900 window: 845 px wide at 81 px; 900 − 81 − 10 = 809 px are left, more than
        // the squarest 0.72 × 845 = 608.4, so 608.
        assert_eq!(size_for(845.0, 81.0, 900.0), (845.0, 608.0));
        // The same at 1366 × 768: 768 − 81 − 10 = 677 px, between 0.45 × 1000 and 0.72 × 1000.
        assert_eq!(size_for(1000.0, 81.0, 768.0), (1000.0, 677.0));
        // A phone: 396 px (< 600, so 0.6–1.0 of the width), room for 713 px: square, 396.
        assert_eq!(size_for(396.0, 100.0, 823.0), (396.0, 396.0));
        // Too narrow and too low: 280 px wide at least, and 0.6 × 280 = 168 < 240 px high.
        assert_eq!(size_for(200.0, 700.0, 760.0), (280.0, 240.0));
    }
}
