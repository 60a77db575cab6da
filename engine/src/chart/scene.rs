//! Drawing primitives in CSS pixels, shared by the canvas and SVG renderers.

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

/// The area of a dot, for hover and click.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub kernel: usize,
    pub cx: f64,
    pub cy: f64,
    pub r: f64,
}

/// A chart ready to paint.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    pub background: Color,
    pub shapes: Vec<Shape>,
    pub hits: Vec<Hit>,
    /// The plot area, `[left, top, right, bottom]` pixels, and the axes.
    pub plot: [f64; 4],
    pub x: super::LogScale,
    pub y: super::LogScale,
}

impl Scene {
    /// The kernel whose dot is under (x, y), nearest first.
    pub fn hit(&self, x: f64, y: f64) -> Option<usize> {
        self.hits
            .iter()
            .map(|h| (h, (h.cx - x).powi(2) + (h.cy - y).powi(2)))
            .filter(|(h, d2)| *d2 <= (h.r + 3.0).powi(2))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(h, _)| h.kernel)
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
    pub dots: [Color; 8],
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
                dots,
            },
        }
    }
}
