//! Stable sorting through one compiled sort.
//!
//! Each `sort_by` with a closure of its own is a copy of the standard library's stable sort in
//! the wasm (3–4 KB each): eight of them were 26 KB of the link chart's wasm (`first/`), none of
//! which a plain shared link runs, downloaded on every shared link's first visit
//! (docs/PERFORMANCE.md, "2026-12-07, later"). [`sort_by`] sorts the positions instead, with the
//! comparison behind a `dyn`, so the engine compiles one sort; callers keep their comparisons.
//! For the lists sorted here (a kernel's bounds, the kernels of a top-N, the devices of a run) the
//! indirect call costs nothing measurable. The redraw's sorts (`chart::dots`, once per kernel
//! of a 10,000-kernel chart) stay direct.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, stably: items that compare equal keep their order.
pub fn sort_by<T>(items: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = sorted_positions(items.len(), &mut |a, b| cmp(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The positions `0..n` in the order `cmp` (of two positions) gives, stably.
#[inline(never)]
fn sorted_positions(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_and_moves_the_items() {
        // Ties on the key (the first letter) keep their input order.
        let mut words: Vec<String> = ["pear", "apple", "plum", "avocado", "fig", "peach"].iter().map(|s| s.to_string()).collect();
        sort_by(&mut words, |a, b| a.as_bytes()[0].cmp(&b.as_bytes()[0]));
        assert_eq!(words, ["apple", "avocado", "fig", "pear", "plum", "peach"]);
        let mut desc = vec![3.0, f64::NAN, 1.0, 2.0];
        sort_by(&mut desc, |a, b| b.total_cmp(a));
        assert!(desc[0].is_nan(), "total_cmp puts NaN above every number");
        assert_eq!(&desc[1..], [3.0, 2.0, 1.0]);
        let mut none: Vec<u8> = Vec::new();
        sort_by(&mut none, |a, b| a.cmp(b));
        assert!(none.is_empty());
    }
}
