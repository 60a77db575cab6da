//! Comparing two runs of the same program: how each kernel's time and performance changed.
//!
//! Kernels are matched by their full name (`KernelProfile::name`, exactly, as the profiler
//! wrote it): that is what stays the same across two runs of one build, while indices and
//! display names (shortened, demangled) do not. A name found in only one run has no change.
//! If a run holds one name twice (not after `dataset`'s aggregation, but possible in hand-made
//! data), its first kernel of that name is the one compared. The chart's trajectory arrows
//! (`chart::compare`) use the same rule.
//!
//! Comparing two whole runs (`roofline compare`, issue 44) pairs kernels more loosely — the
//! same function with other template arguments, a unique short name, the user's pairs — and
//! judges each run against its own machine: [`pairing`] and [`runs`].

pub mod pairing;
pub mod runs;

pub use pairing::{pair, pair_manual, ManualPairs, MatchedBy, Pair, PairError, Pairing, UserPairs};
pub use runs::{compare, compare_runs, Comparison, PairChange, Run, Side, Unpaired};

use crate::domain::profile::KernelProfile;
use std::collections::HashMap;

/// How one kernel changed from a run to the next, as fractions: −0.5 is half the time (or
/// half the FLOP/s), +1.0 double. `None` where either run lacks what the ratio needs (a time,
/// FLOPs), or the earlier value is zero: unmeasured is not "no change".
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Change {
    pub name: String,
    /// `after.time / before.time − 1`.
    pub time_change: Option<f64>,
    /// `after.FLOP/s / before.FLOP/s − 1`, FLOP/s being all FLOPs over the time.
    pub perf_change: Option<f64>,
}

/// The change of every kernel of `after` that `before` also has, in `after`'s order. Tensor
/// FLOPs count only where measured as FLOPs (see [`changes_with`] to count tensor
/// instructions at a machine's FLOPs per instruction).
pub fn changes(before: &[KernelProfile], after: &[KernelProfile]) -> Vec<Change> {
    changes_with(before, after, None)
}

/// [`changes`], counting tensor instructions at `flops_per_tensor_inst` FLOPs each (the
/// machine's, as the charts and the report do).
pub fn changes_with(before: &[KernelProfile], after: &[KernelProfile], flops_per_tensor_inst: Option<f64>) -> Vec<Change> {
    let earlier = first_by_name(before);
    after
        .iter()
        .filter_map(|a| {
            let b = *earlier.get(a.name.as_str())?;
            let perf = |k: &KernelProfile| Some(k.total_flops(flops_per_tensor_inst)? / usable(k.time_s())?);
            Some(Change { name: a.name.clone(), time_change: ratio(a.time_s(), b.time_s()), perf_change: ratio(perf(a), perf(b)) })
        })
        .collect()
}

/// Each name's first kernel: the one a name in another run is compared with.
pub fn first_by_name(kernels: &[KernelProfile]) -> HashMap<&str, &KernelProfile> {
    let mut map = HashMap::with_capacity(kernels.len());
    for k in kernels {
        map.entry(k.name.as_str()).or_insert(k);
    }
    map
}

/// A positive, finite value; anything else cannot be divided by or compared.
fn usable(v: Option<f64>) -> Option<f64> {
    v.filter(|v| v.is_finite() && *v > 0.0)
}

/// `after / before − 1` when both are usable.
fn ratio(after: Option<f64>, before: Option<f64>) -> Option<f64> {
    let (a, b) = (after.filter(|v| v.is_finite() && *v >= 0.0)?, usable(before)?);
    Some(a / b - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::{Counter, Counters};

    fn k(name: &str, flops: Option<f64>, time: Option<f64>) -> KernelProfile {
        let mut c = Counters::default();
        if let Some(f) = flops {
            c.set(Counter::Fp64Flops, f);
        }
        if let Some(t) = time {
            c.set(Counter::TimeS, t);
        }
        KernelProfile { name: name.into(), launches: 1, counters: c }
    }

    #[test]
    fn unmeasured_gives_none_not_zero() {
        let got = changes(&[k("a", None, Some(2.0)), k("b", Some(1.0), Some(0.0))], &[k("a", Some(1.0), Some(1.0)), k("b", Some(1.0), Some(1.0))]);
        assert_eq!(got[0], Change { name: "a".into(), time_change: Some(-0.5), perf_change: None });
        assert_eq!(got[1], Change { name: "b".into(), time_change: None, perf_change: None });
    }

    #[test]
    fn first_of_a_repeated_name_is_compared() {
        let got = changes(&[k("a", None, Some(2.0)), k("a", None, Some(8.0))], &[k("a", None, Some(4.0))]);
        assert_eq!(got[0].time_change, Some(1.0));
    }
}
