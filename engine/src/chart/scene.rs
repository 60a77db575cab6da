//! Drawing primitives in CSS pixels, shared by the canvas and SVG renderers.

use super::hit_grid::{HitGrid, LazyGrid};
use crate::model::Level;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// `#rrggbb`, understood by canvas and SVG alike.
    pub fn css(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Where a text's anchor point sits relative to the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Line { points: Vec<(f64, f64)>, color: Color, width: f64, dash: bool },
    Circle { cx: f64, cy: f64, r: f64, fill: Option<Color>, stroke: Option<Color>, width: f64 },
    /// `y` is the text's alphabetic baseline; `rotate_deg` turns it clockwise about (x, y).
    Text { x: f64, y: f64, text: String, color: Color, size: f64, anchor: Anchor, rotate_deg: f64 },
    /// A straight arrow from `from` to `to` (run comparison: a kernel's point in one run to
    /// its point in the next), its head a filled triangle. `from` and `to` are the two
    /// markers' centres; the drawn arrow leaves `trim[0]` pixels at the start and `trim[1]`
    /// at the end (the markers' radii), so it runs edge to edge and its head stays visible
    /// beside the dot it points at. Both renderers take the geometry from [`arrow_geometry`].
    Arrow { from: (f64, f64), to: (f64, f64), color: Color, width: f64, trim: [f64; 2] },
    /// A filled axis-aligned rectangle, top-left corner (`x`, `y`), `w` × `h` pixels: the
    /// modules of a link's QR code in an export's frame ([`super::caption`]).
    Rect { x: f64, y: f64, w: f64, h: f64, fill: Color },
}

/// What a renderer draws for an arrow: the shaft from `start` to `base` and the head, a
/// triangle (tip, then the two barbs) whose base centre is `base`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrowGeometry {
    pub start: (f64, f64),
    pub base: (f64, f64),
    pub head: [(f64, f64); 3],
}

/// The geometry of an arrow of line `width` from `from` to `to`, trimmed at both ends (see
/// [`Shape::Arrow`]). `None` when there is nothing to point with: equal or non-finite ends,
/// or markers so close that the trimmed arrow would have no room for its head.
pub fn arrow_geometry(from: (f64, f64), to: (f64, f64), width: f64, trim: [f64; 2]) -> Option<ArrowGeometry> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = dx.hypot(dy);
    let trim = trim.map(|t| if t.is_finite() { t.max(0.0) } else { 0.0 });
    // Long enough to read at a glance, in proportion to the line.
    let head = 5.0 + 2.0 * if width.is_finite() { width.clamp(0.0, 4.0) } else { 1.0 };
    if !(len.is_finite() && len > trim[0] + trim[1] + head) {
        return None;
    }
    let (ux, uy) = (dx / len, dy / len);
    let at = |d: f64| (from.0 + ux * d, from.1 + uy * d);
    let (tip, base) = (at(len - trim[1]), at(len - trim[1] - head));
    let half = head * 0.45;
    Some(ArrowGeometry { start: at(trim[0]), base, head: [tip, (base.0 - uy * half, base.1 + ux * half), (base.0 + uy * half, base.1 - ux * half)] })
}

/// What a dot stands for, so hover can say more than the kernel's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// Performance at a memory level (classic: DRAM; hierarchical: each level; instruction:
    /// warp instructions per second at L1/L2/DRAM; walls: all instructions at L1).
    Level,
    /// Thread instructions ÷ 32 per second at a level (instruction roofline; Ding & Williams
    /// Fig. 2): below the kernel's warp dots by its predication loss.
    Thread,
    /// Tensor (HMMA) warp instructions per second at a level (Ding & Williams Fig. 9).
    Tensor,
    /// Global LD/ST instructions per global transaction (walls; open dot).
    GlobalLdSt,
    /// Shared LD/ST instructions per shared transaction (walls; open dot).
    SharedLdSt,
    /// A copy or memset ([`super::Mode::Transfers`]); `Hit::kernel` is then an index into
    /// the transfers.
    Transfer,
    /// Bytes per second attained by a kernel without FLOPs, in the bandwidth strip under a
    /// FLOP chart ([`super::strip`]); read its value on [`Scene::strip`]'s axis.
    Bandwidth,
}

impl Marker {
    pub fn label(self) -> &'static str {
        match self {
            Marker::Level => "performance",
            Marker::Thread => "thread instructions / 32",
            Marker::Tensor => "tensor (HMMA) instructions",
            Marker::GlobalLdSt => "global LD/ST",
            Marker::SharedLdSt => "shared LD/ST",
            Marker::Transfer => "transfer",
            Marker::Bandwidth => "bandwidth attained (no FLOPs)",
        }
    }
}

/// The area of a dot, for hover and click.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index into `ChartInput::kernels` (in transfers mode: into `ChartInput::transfers`).
    pub kernel: usize,
    pub cx: f64,
    pub cy: f64,
    pub r: f64,
    /// The memory level of the dot, if it is about one.
    pub level: Option<Level>,
    pub marker: Marker,
}

/// Pixels of slack around a dot that still count as on it (easier hover on small dots).
pub const HIT_SLACK_PX: f64 = 3.0;

/// A chart ready to paint.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    pub background: Color,
    pub shapes: Vec<Shape>,
    /// Every dot's hit area. Read-only after [`Scene::new`]: the hover index is built from it.
    pub hits: Vec<Hit>,
    /// The plot area, `[left, top, right, bottom]` pixels, and the axes.
    pub plot: [f64; 4],
    pub x: super::LogScale,
    pub y: super::LogScale,
    /// The bandwidth strip's axis, when the chart has one ([`super::strip`]).
    pub strip: Option<super::strip::StripAxis>,
    /// Every roof drawn, with the label placed for it ([`super::roofs`]).
    pub roofs: Vec<RoofKey>,
    index: LazyGrid,
}

/// A drawn roof and its label: every roof keeps one (issue 43), the full text where it fits,
/// else a short form, else a number explained in a key in the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct RoofKey {
    /// The roof's full label ("BF16 matrix 989 TFLOP/s").
    pub name: String,
    /// The text placed on the roof: `name`, its short form ("BF16 mat. 989T") or its number.
    pub label: String,
    /// The placed label's box, `[left, top, right, bottom]` pixels.
    pub label_box: [f64; 4],
    /// Whether it is the selected kernel's binding roof ([`super::binding`]).
    pub binding: bool,
}

impl Scene {
    /// A scene; its hover index is built on the first hover ([`LazyGrid`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(width: f64, height: f64, background: Color, shapes: Vec<Shape>, hits: Vec<Hit>, plot: [f64; 4], x: super::LogScale, y: super::LogScale) -> Scene {
        Scene { width, height, background, shapes, hits, plot, x, y, strip: None, roofs: Vec::new(), index: LazyGrid::default() }
    }

    /// The data ranges the axes show.
    pub fn ranges(&self) -> super::Zoom {
        super::Zoom { x: [self.x.min, self.x.max], y: [self.y.min, self.y.max] }
    }

    /// The kernel whose dot is under (x, y), nearest first.
    pub fn hit(&self, x: f64, y: f64) -> Option<usize> {
        self.hit_dot(x, y).map(|h| h.kernel)
    }

    /// The dot under (x, y), nearest centre first (ties: the earlier dot): kernel, level and
    /// marker. O(1) on average through a uniform grid, so hover stays fast with 30 000 dots.
    pub fn hit_dot(&self, x: f64, y: f64) -> Option<&Hit> {
        let grid = self.index.get_or_build(|| HitGrid::new(&self.hits, self.width, self.height, HIT_SLACK_PX));
        grid.nearest(&self.hits, x, y, HIT_SLACK_PX).and_then(|i| self.hits.get(i))
    }
}

/// Light or dark colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

/// The colours of one theme.
pub struct Palette {
    pub background: Color,
    pub text: Color,
    pub grid: Color,
    pub axis: Color,
    pub memory: Color,
    pub compute: Color,
    pub selection: Color,
    /// Thin lines joining one kernel's dots.
    pub link: Color,
    pub dots: [Color; 8],
}

impl Palette {
    /// The colour of a memory level: its dots and its bandwidth roof share it, so a dot is
    /// read against the roof of its colour (Ding & Williams §III-B: "how close each colored
    /// point is to the associated colored bandwidth ceiling"). Okabe–Ito hues, in the paper's
    /// order of L1 red, L2 green, HBM blue.
    pub fn level(&self, level: Level) -> Color {
        match level {
            Level::L1 => Color(213, 94, 0),
            Level::Shared => Color(204, 121, 167),
            Level::L2 => Color(0, 158, 115),
            Level::L3 => Color(230, 159, 0),
            Level::Dram => Color(0, 114, 178),
        }
    }
}

impl Theme {
    pub fn palette(self) -> Palette {
        // Okabe–Ito colour-blind-safe hues for dots.
        let dots = [
            Color(0, 114, 178),
            Color(230, 159, 0),
            Color(0, 158, 115),
            Color(204, 121, 167),
            Color(86, 180, 233),
            Color(213, 94, 0),
            Color(240, 228, 66),
            Color(120, 120, 120),
        ];
        match self {
            Theme::Light => Palette {
                background: Color(255, 255, 255),
                text: Color(30, 30, 30),
                grid: Color(230, 230, 230),
                axis: Color(90, 90, 90),
                memory: Color(200, 40, 40),
                compute: Color(30, 60, 170),
                selection: Color(0, 0, 0),
                link: Color(150, 150, 150),
                dots,
            },
            Theme::Dark => Palette {
                background: Color(24, 26, 31),
                text: Color(225, 225, 225),
                grid: Color(52, 55, 62),
                axis: Color(160, 160, 160),
                memory: Color(255, 110, 100),
                compute: Color(120, 160, 255),
                selection: Color(255, 255, 255),
                link: Color(110, 110, 110),
                dots,
            },
        }
    }
}
