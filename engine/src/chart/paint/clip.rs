//! Polylines cut to a rectangle (Liang–Barsky, per segment), for shapes whose drawing cost
//! grows with their length (dashed lines: one path per dash).

use plotters_backend::BackendCoord;

/// The parts of `points` inside `[0, w] × [0, h]`, as polylines of two or more points; one
/// polyline, equal to `points`, when all of it is inside.
pub fn polyline(points: &[BackendCoord], (w, h): (u32, u32)) -> Vec<Vec<BackendCoord>> {
    let mut out: Vec<Vec<BackendCoord>> = Vec::new();
    let mut open = false;
    for seg in points.windows(2) {
        let Some((a, b)) = segment(seg[0], seg[1], w as f64, h as f64) else {
            open = false;
            continue;
        };
        match out.last_mut() {
            Some(last) if open && last.last() == Some(&a) => last.push(b),
            _ => out.push(vec![a, b]),
        }
        // A segment cut at its end leaves the rectangle: the next one starts a new piece.
        open = b == seg[1];
    }
    out
}

/// The part of segment `p`–`q` inside `[0, w] × [0, h]`, rounded to whole units.
fn segment(p: BackendCoord, q: BackendCoord, w: f64, h: f64) -> Option<(BackendCoord, BackendCoord)> {
    let (x0, y0) = (p.0 as f64, p.1 as f64);
    let (dx, dy) = (q.0 as f64 - x0, q.1 as f64 - y0);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    // Each edge: the segment enters where `num / den` crosses it (den < 0) or leaves (den > 0).
    for (den, num) in [(-dx, x0), (dx, w - x0), (-dy, y0), (dy, h - y0)] {
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = num / den;
            if den < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| if t == 0.0 { p } else if t == 1.0 { q } else { ((x0 + dx * t).round() as i32, (y0 + dy * t).round() as i32) };
    Some((at(t0), at(t1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_stays_whole_and_outside_is_cut() {
        let inside = [(1, 1), (50, 20), (90, 5)];
        assert_eq!(polyline(&inside, (100, 50)), vec![inside.to_vec()]);
        // From (−50, 25) to (150, 25): only x 0..100 of it.
        assert_eq!(polyline(&[(-50, 25), (150, 25)], (100, 50)), vec![vec![(0, 25), (100, 25)]]);
        // Out through the top at x = 40 (y from 10 to −10 over x 30..50), back in at x = 60.
        assert_eq!(polyline(&[(30, 10), (50, -10), (70, 10)], (100, 50)), vec![vec![(30, 10), (40, 0)], vec![(60, 0), (70, 10)]]);
        assert!(polyline(&[(-10, -10), (-5, 60)], (100, 50)).is_empty());
        // The ends of the i32 range: one piece across the whole rectangle's diagonal.
        assert_eq!(polyline(&[(i32::MIN, i32::MIN), (i32::MAX, i32::MAX)], (100, 100)), vec![vec![(0, 0), (100, 100)]]);
    }
}
