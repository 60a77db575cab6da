//! Joining launches of one run split over several files, launch by launch.
//!
//! Why two maps: every kept launch of a raw page has an id of its own, so a map from id to a
//! `Vec` of kept launches allocated one `Vec` per launch (≈ 1 % of `roofline analyze` on a
//! 50 MB raw page, docs/PERFORMANCE.md). The first kernel of an id is kept inline; only an id
//! shared by several kernels (ids restarting per process) has a list.

use super::{overlaps, MAX_KEPT_LAUNCHES};
use crate::domain::counters::Counters;
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
    /// Where the file being read began ([`LaunchJoin::begin`]: a builder that keeps going past
    /// a file that fails), and the earlier files' records it joined, with their counters before,
    /// so that [`LaunchJoin::roll_back`] can take the file back.
    undo: Option<(usize, Vec<(usize, Counters)>)>,
}

impl LaunchJoin {
    /// Joins `launch` to a kept launch of the same id and kernel, or keeps it (or counts it
    /// in `omitted` past the cap).
    pub(super) fn add(&mut self, all: &mut Vec<Launch>, omitted: &mut u64, launch: LaunchRef<'_>) {
        if let Some(id) = launch.id {
            let kept = all.len();
            let found = self.find(all, id, launch.kernel);
            match found.and_then(|i| Some((i, all.get_mut(i)?))) {
                // The same launch, measured by another file of the run: join.
                Some((i, existing)) if !overlaps(&existing.counters, launch.counters) => {
                    if let Some((_, log)) = self.undo.as_mut().filter(|(from, _)| i < *from) {
                        log.push((i, existing.counters.clone()));
                    }
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

    /// Starts a file whose launches may be taken back ([`LaunchJoin::roll_back`]): the kept
    /// launches from `kept` on are its.
    pub(super) fn begin(&mut self, kept: usize) {
        self.undo = Some((kept, Vec::new()));
    }

    /// Takes back every launch the file begun at `kept` added: its own records removed, the
    /// earlier records it joined given their counters back (the join as if the file had never
    /// been read).
    pub(super) fn roll_back(&mut self, all: &mut Vec<Launch>, kept: usize) {
        if let Some((_, log)) = self.undo.take() {
            for (i, counters) in log.into_iter().rev() {
                if let Some(l) = all.get_mut(i) {
                    l.counters = counters;
                }
            }
        }
        self.remove(all, kept..all.len());
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
