//! Joining launches of one run split over several files, launch by launch.
//!
//! Why two maps: every kept launch of a raw page has an id of its own, so a map from id to a
//! `Vec` of kept launches allocated one `Vec` per launch (≈ 1 % of `roofline analyze` on a
//! 50 MB raw page, docs/PERFORMANCE.md). The first kernel of an id is kept inline; only an id
//! shared by several kernels (ids restarting per process) has a list.

use super::{overlaps, MAX_KEPT_LAUNCHES};
use crate::domain::profile::Launch;
use crate::import::stream::LaunchRef;
use rustc_hash::FxHashMap;

/// Joins launches of one run split over several files: a launch with the same id and kernel
/// name as one already kept, measuring other counters, gains its counters; any other launch
/// is kept while fewer than [`MAX_KEPT_LAUNCHES`] are.
///
/// Each (id, kernel name) has at most one kept launch indexed, so which map holds it does
/// not change which launch a later one joins.
#[derive(Default)]
pub(super) struct LaunchJoin {
    /// Launch id → index in the kept launches of the first kernel indexed with that id.
    first: FxHashMap<u64, usize>,
    /// Launch id → indices of the kept launches of further kernels with that id.
    more: FxHashMap<u64, Vec<usize>>,
}

impl LaunchJoin {
    /// Joins `launch` to a kept launch of the same id and kernel, or keeps it (or counts it
    /// in `omitted` past the cap).
    pub(super) fn add(&mut self, all: &mut Vec<Launch>, omitted: &mut u64, launch: LaunchRef<'_>) {
        if let Some(id) = launch.id {
            let kept = all.len();
            match self.find(all, id, launch.kernel).and_then(|i| all.get_mut(i)) {
                // The same launch, measured by another file of the run: join.
                Some(existing) if !overlaps(&existing.counters, launch.counters) => {
                    existing.counters.fill_from(launch.counters);
                    return;
                }
                // The same counters again: another run of the application, a launch of its own.
                Some(_) => {}
                None if kept < MAX_KEPT_LAUNCHES => self.index(id, kept),
                None => {}
            }
        }
        if all.len() < MAX_KEPT_LAUNCHES {
            all.push(launch.to_launch());
        } else {
            *omitted += 1;
        }
    }

    /// The kept launch indexed for (`id`, `kernel`).
    fn find(&self, all: &[Launch], id: u64, kernel: &str) -> Option<usize> {
        let is_kernel = |i: &usize| all.get(*i).is_some_and(|l| l.kernel == kernel);
        if let Some(i) = self.first.get(&id).copied().filter(is_kernel) {
            return Some(i);
        }
        self.more.get(&id)?.iter().copied().find(is_kernel)
    }

    fn index(&mut self, id: u64, kept: usize) {
        match self.first.entry(id) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(kept);
            }
            std::collections::hash_map::Entry::Occupied(_) => self.more.entry(id).or_default().push(kept),
        }
    }

    /// Removes the kept launches in `range` (one file's records, taken back) and moves the
    /// indices of later ones down.
    pub(super) fn remove(&mut self, all: &mut Vec<Launch>, range: std::ops::Range<usize>) {
        if range.is_empty() || range.end > all.len() {
            return;
        }
        let n = range.len();
        all.drain(range.clone());
        let moved = |i: usize| if i >= range.end { i - n } else { i };
        self.first.retain(|_, i| !range.contains(i));
        for i in self.first.values_mut() {
            *i = moved(*i);
        }
        for v in self.more.values_mut() {
            v.retain(|i| !range.contains(i));
            for i in v.iter_mut() {
                *i = moved(*i);
            }
        }
    }
}
