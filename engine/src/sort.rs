//! One stable sort for the whole engine and app.
//!
//! Every `slice::sort_by` call site with its own element type or comparison closure gets its
//! own copy of the standard library's driftsort in the wasm (3–4 KB each; eight copies were
//! 30 KB of the bundle). These helpers instantiate it once, for `usize` with a
//! `dyn` comparison, and sort anything else through a permutation of indices. The cost is a
//! dynamic call per comparison, which is negligible next to what the comparisons compute.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`, which compares two of its values. The one real sort: every
/// other helper goes through it.
#[inline(never)]
pub fn sort_usizes(v: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    v.sort_by(|&a, &b| cmp(a, b));
}

/// Sorts `v` stably by `cmp`, like `slice::sort_by`, through [`sort_usizes`].
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_usizes(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, &mut order);
}

/// Rearranges `v` so that position `k` holds what was at `order[k]`, following each cycle of
/// the permutation with swaps (no allocation, O(n)). `order` must be a permutation of
/// `0..v.len()`, as [`sort_by`] makes it; it is used up (each entry set to its own index).
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut k = start;
        loop {
            let next = order[k];
            order[k] = k;
            if next == start || next == k {
                break;
            }
            v.swap(k, next);
            k = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_library() {
        // Pairs sorted by the first item only: equal keys keep their input order.
        let input: Vec<(u32, char)> = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e'), (2, 'f'), (3, 'g')];
        let mut ours = input.clone();
        sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
        assert_eq!(ours, vec![(0, 'd'), (1, 'b'), (1, 'e'), (2, 'f'), (3, 'a'), (3, 'c'), (3, 'g')]);
        let mut std_sorted = input;
        std_sorted.sort_by_key(|a| a.0);
        assert_eq!(ours, std_sorted);
    }

    #[test]
    fn permutations_with_long_cycles_and_fixed_points() {
        // Reversal (many 2-cycles and a fixed point), a rotation (one long cycle), empty, one.
        for n in [0usize, 1, 2, 7, 100] {
            let mut v: Vec<usize> = (0..n).rev().collect();
            sort_by(&mut v, |a, b| a.cmp(b));
            assert_eq!(v, (0..n).collect::<Vec<_>>());
            let mut rot: Vec<usize> = (0..n).map(|i| (i + 1) % n.max(1)).collect();
            sort_by(&mut rot, |a, b| b.cmp(a));
            assert_eq!(rot, (0..n).rev().collect::<Vec<_>>());
        }
    }

    #[test]
    fn sort_usizes_compares_values() {
        let mut v = vec![5usize, 3, 9, 3, 0];
        sort_usizes(&mut v, &mut |a, b| b.cmp(&a));
        assert_eq!(v, vec![9, 5, 3, 3, 0]);
    }
}
