//! Per-kernel totals of one file, summed launch by launch as the file is read.

use crate::domain::counters::{Counter, Counters};
use crate::domain::profile::KernelProfile;
use rustc_hash::FxHashMap;

/// Kernels of one file in order of first appearance, with their launches summed: counts,
/// bytes and time add up; rates (the clock) become the launch-weighted mean. Looking a
/// launch's kernel up by `&str` allocates nothing; a name is copied once, when first seen.
#[derive(Default)]
pub struct KernelTotals {
    kernels: Vec<KernelProfile>,
    /// FxHash: looked up once per launch (docs/PERFORMANCE.md).
    by_name: FxHashMap<String, usize>,
    /// Per kernel, per counter: launches behind the running mean of a rate.
    rate_weights: Vec<[f64; Counter::ALL.len()]>,
}

impl KernelTotals {
    /// Adds a record standing for `count` launches of `kernel` with per-launch `counters`.
    pub fn add(&mut self, kernel: &str, count: u64, counters: &Counters) {
        let i = match self.by_name.get(kernel) {
            Some(&i) => i,
            None => {
                let i = self.kernels.len();
                self.kernels.push(KernelProfile { name: kernel.to_string(), launches: 0, counters: Counters::default() });
                self.rate_weights.push([0.0; Counter::ALL.len()]);
                self.by_name.insert(kernel.to_string(), i);
                i
            }
        };
        let (Some(k), Some(weights)) = (self.kernels.get_mut(i), self.rate_weights.get_mut(i)) else { return };
        k.launches = k.launches.saturating_add(count);
        let n = count as f64;
        // A record of one launch gives that launch's cycles / clock; a record standing for
        // several (a summary row, a view file's kernel) holds averages, from which per-launch
        // times cannot be recovered.
        if count == 1 && counters.get(Counter::CycleTimeS).is_none() {
            if let Some(t) = cycle_time_s(counters) {
                k.counters.add(Counter::CycleTimeS, t);
            }
        }
        for (c, v) in counters.iter() {
            if c.is_rate() {
                let w = &mut weights[c as usize];
                let prev = k.counters.get(c).unwrap_or(0.0);
                k.counters.set(c, (prev * *w + v * n) / (*w + n));
                *w += n;
            } else {
                k.counters.add(c, v * n);
            }
        }
    }

    pub fn into_kernels(self) -> Vec<KernelProfile> {
        self.kernels
    }
}

/// One launch's cycles ÷ clock, seconds, where it measured both (and the clock is positive).
pub fn cycle_time_s(counters: &Counters) -> Option<f64> {
    let (cycles, hz) = (counters.get(Counter::Cycles)?, counters.get(Counter::ClockHz)?);
    (hz > 0.0 && hz.is_finite() && cycles.is_finite()).then(|| cycles / hz)
}
