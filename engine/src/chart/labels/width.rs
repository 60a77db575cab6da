//! How wide a text is, before any font is at hand: the placer reserves each label's box from
//! this, so it must not be narrower than what a browser draws. The widths are DejaVu Sans's
//! (Debian's fonts-dejavu-core 2.37), the font Linux browsers draw `system-ui` and `sans-serif`
//! with, and the widest of the common UI sans-serifs: Segoe UI, San Francisco, Helvetica, Arial
//! and Roboto are narrower, so the box holds the text in any of them. A wider font still never
//! spills over a neighbour: the canvas draws each text at most this wide (fillText's maxWidth,
//! app/src/canvas/backend.rs), condensing it. Kerning only narrows a text.

/// Advance widths of ASCII 0x20 (space) to 0x7E (`~`), thousandths of an em, as the canvas'
/// `measureText` gives them for DejaVu Sans at 1000 px (the same in Chromium, Firefox and
/// WebKitGTK).
const ASCII: [u16; 95] = [
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // space to /
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // 0 to ?
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // @ to O
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // P to _
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // ` to o
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, // p to ~
];

/// The other characters chart texts use (units, arrows, dashes, primes), same units.
const OTHER: [(char, u16); 15] = [
    ('×', 838), ('÷', 838), ('µ', 636), ('→', 838), ('–', 500), ('—', 1000), ('′', 227), ('″', 374),
    ('≈', 838), ('·', 318), ('…', 1000), ('±', 838), ('−', 838), ('Σ', 632), ('Δ', 684),
];

/// Any other character: a whole em, enough for an ideograph or any accented letter.
const ELSE: u16 = 1000;

/// The advance of `c`, thousandths of an em.
fn advance(c: char) -> u16 {
    match c {
        ' '..='~' => ASCII[c as usize - 0x20],
        _ => OTHER.iter().find(|(o, _)| *o == c).map_or(ELSE, |(_, w)| *w),
    }
}

/// The width of `text` drawn at `size` px, in px.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| f64::from(advance(c))).sum::<f64>() * size / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_of_what_the_charts_write() {
        // "HBM" at 11 px: H 752 + B 686 + M 863 = 2.301 em (measured 25.3 px in all three engines).
        assert!((text_width("HBM", 11.0) - 25.311).abs() < 1e-9);
        assert!((text_width("10", 10.0) - 12.72).abs() < 1e-9);
        assert_eq!(text_width("", 12.0), 0.0);
        // Arrows and the multiplication sign are in the table; an ideograph is a whole em.
        assert!((text_width("→×", 1000.0) - 1676.0).abs() < 1e-9);
        assert!((text_width("核", 10.0) - 10.0).abs() < 1e-9);
    }
}
