//! Two runs of one program compared whole (issue 44): each run with its own files, device,
//! machine and clock, so an A100 run and an H100 run are each judged against their own roofs;
//! kernels paired by [`super::pairing`]; per pair the time and FLOP/s before and after, the
//! fraction of its own run's roof each reached, the speed-up; and for the whole run the time
//! ratio and the Amdahl view of what the change bought: the share of the before run's time
//! each pair's saving accounts for.
//!
//! Times are the kernels' [`KernelProfile::time_s`] (all launches summed); kernels without one
//! count as no time. The run's time identity, which the tests check:
//! `before_time_s − after_time_s = Σ pairs' saved_s + removed_time_s − added_time_s`.

use super::pairing::{pair, MatchedBy, PairError, Pairing, UserPairs};
use crate::choice::{choose, ClockChoice, MachineChoice};
use crate::dataset::Dataset;
use crate::domain::profile::KernelProfile;
use crate::model::guidance::guide;
use crate::model::Machine;
use serde::Serialize;

/// One run, complete: its files' dataset and the machine and clock it is judged against,
/// chosen for it alone as `analyze` chooses for one dataset ([`choose`]).
#[derive(Clone, Debug)]
pub struct Run {
    pub dataset: Dataset,
    /// `None` where no machine was given and the files name none the catalogue knows: its
    /// kernels are compared in time only.
    pub choice: Option<MachineChoice>,
}

impl Run {
    /// The run of `dataset`, against `given` (the user's machine, which then judges this run)
    /// or the machine [`choose`] finds for it, at `clock`. Errors: a clock the machine cannot
    /// be evaluated at.
    pub fn new(dataset: Dataset, given: Option<Machine>, clock: ClockChoice) -> Result<Run, String> {
        let choice = choose(&dataset, given, clock)?;
        Ok(Run { dataset, choice })
    }

    pub fn machine(&self) -> Option<&Machine> {
        self.choice.as_ref().map(|c| &c.machine)
    }

    /// This run's kernels against its machine, for [`compare`].
    pub fn side(&self) -> Side<'_> {
        Side { kernels: &self.dataset.kernels, machine: self.machine() }
    }
}

/// One run as the comparison needs it: its kernels and its own machine. The app holds runs as
/// kernel lists and builds these without a [`Run`].
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub kernels: &'a [KernelProfile],
    pub machine: Option<&'a Machine>,
}

/// One pair of kernels, each measured in its own run against its own machine. Names are the
/// full names, as `analyze --json` prints them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairChange {
    pub before: String,
    pub after: String,
    /// Indices into the runs' kernel lists (for the app's arrows; not in the JSON, whose
    /// names are the key).
    #[serde(skip)]
    pub before_index: usize,
    #[serde(skip)]
    pub after_index: usize,
    pub matched_by: MatchedBy,
    pub before_time_s: Option<f64>,
    pub after_time_s: Option<f64>,
    /// before_time_s ÷ after_time_s: 2 = twice as fast.
    pub speedup: Option<f64>,
    /// All FLOPs ÷ time, tensor instructions at the run's machine's FLOPs per instruction.
    pub before_flops_per_s: Option<f64>,
    pub after_flops_per_s: Option<f64>,
    /// Fraction of its binding roof on its own run's machine (guidance's `attained_fraction`):
    /// 0.5 = half of what the roof allows at its intensities.
    pub before_attained: Option<f64>,
    pub after_attained: Option<f64>,
    /// The binding roof's name on each side ("DRAM bandwidth").
    pub before_bound: Option<String>,
    pub after_bound: Option<String>,
    /// before_time_s − after_time_s: negative when the kernel got slower.
    pub saved_s: Option<f64>,
    /// saved_s ÷ the before run's time: the part of the whole run this pair's change bought.
    pub share_of_run: Option<f64>,
}

/// A kernel in one run only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unpaired {
    pub name: String,
    #[serde(skip)]
    pub index: usize,
    pub time_s: Option<f64>,
    pub flops_per_s: Option<f64>,
    pub attained: Option<f64>,
    /// time_s ÷ its own run's time.
    pub share_of_run: Option<f64>,
}

/// The comparison of two runs (module doc): `roofline compare --json`'s `comparison`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Largest saved_s first; pairs without one last, in before's order.
    pub pairs: Vec<PairChange>,
    /// Kernels only in the after run.
    pub added: Vec<Unpaired>,
    /// Kernels only in the before run.
    pub removed: Vec<Unpaired>,
    /// Σ time_s of the before run's kernels.
    pub before_time_s: f64,
    pub after_time_s: f64,
    /// before_time_s ÷ after_time_s; `null` when the after run has no time.
    pub run_speedup: Option<f64>,
    /// Σ saved_s of the pairs.
    pub paired_saved_s: f64,
    /// Σ time_s of the removed kernels (time the change no longer spends on them).
    pub removed_time_s: f64,
    /// Σ time_s of the added kernels (time it spends on new ones).
    pub added_time_s: f64,
}

/// Pairs the runs' kernels ([`pair`]) and compares them ([`compare`]).
pub fn compare_runs(before: &Run, after: &Run, user: &UserPairs) -> Result<Comparison, PairError> {
    fn names(r: &Run) -> Vec<&str> {
        r.dataset.kernels.iter().map(|k| k.name.as_str()).collect()
    }
    let pairing = pair(&names(before), &names(after), user)?;
    Ok(compare(before.side(), after.side(), &pairing))
}

/// Compares two runs' kernels as `pairing` pairs them, each against its own machine.
pub fn compare(before: Side<'_>, after: Side<'_>, pairing: &Pairing) -> Comparison {
    let before_time_s = run_time_s(before.kernels);
    let after_time_s = run_time_s(after.kernels);
    let measure = |side: Side<'_>, i: usize| Measured::of(side.kernels.get(i), side.machine);
    let mut pairs: Vec<PairChange> = pairing
        .pairs
        .iter()
        .filter_map(|p| {
            let (b, a) = (before.kernels.get(p.before)?, after.kernels.get(p.after)?);
            let (mb, ma) = (measure(before, p.before), measure(after, p.after));
            let saved_s = mb.time_s.zip(ma.time_s).map(|(b, a)| b - a);
            Some(PairChange {
                before: b.name.clone(),
                after: a.name.clone(),
                before_index: p.before,
                after_index: p.after,
                matched_by: p.matched_by,
                before_time_s: mb.time_s,
                after_time_s: ma.time_s,
                speedup: mb.time_s.zip(ma.time_s.filter(|t| *t > 0.0)).map(|(b, a)| b / a),
                before_flops_per_s: mb.flops_per_s,
                after_flops_per_s: ma.flops_per_s,
                before_attained: mb.attained,
                after_attained: ma.attained,
                before_bound: mb.bound,
                after_bound: ma.bound,
                saved_s,
                share_of_run: saved_s.filter(|_| before_time_s > 0.0).map(|s| s / before_time_s),
            })
        })
        .collect();
    // Largest saving first; stable, so ties (and pairs without a saving, last) keep before's order.
    crate::order::sort_by(&mut pairs, |x, y| match (x.saved_s, y.saved_s) {
        (Some(a), Some(b)) => b.total_cmp(&a),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let unpaired = |side: Side<'_>, list: &[usize], total_s: f64| -> Vec<Unpaired> {
        list.iter()
            .filter_map(|&i| {
                let k = side.kernels.get(i)?;
                let m = measure(side, i);
                Some(Unpaired {
                    name: k.name.clone(),
                    index: i,
                    share_of_run: m.time_s.filter(|_| total_s > 0.0).map(|t| t / total_s),
                    time_s: m.time_s,
                    flops_per_s: m.flops_per_s,
                    attained: m.attained,
                })
            })
            .collect()
    };
    let removed = unpaired(before, &pairing.removed, before_time_s);
    let added = unpaired(after, &pairing.added, after_time_s);
    let sum = |xs: &[Unpaired]| xs.iter().filter_map(|u| u.time_s).fold(0.0, |s, t| s + t);
    Comparison {
        paired_saved_s: pairs.iter().filter_map(|p| p.saved_s).fold(0.0, |s, t| s + t),
        removed_time_s: sum(&removed),
        added_time_s: sum(&added),
        pairs,
        added,
        removed,
        before_time_s,
        after_time_s,
        run_speedup: (after_time_s > 0.0).then(|| before_time_s / after_time_s),
    }
}

/// Σ of the kernels' usable times: what a run's time is here (kernels only, no transfers).
fn run_time_s(kernels: &[KernelProfile]) -> f64 {
    kernels.iter().filter_map(time_of).fold(0.0, |s, t| s + t)
}

fn time_of(k: &KernelProfile) -> Option<f64> {
    k.time_s().filter(|t| t.is_finite() && *t >= 0.0)
}

/// What one kernel measures against its run's machine.
struct Measured {
    time_s: Option<f64>,
    flops_per_s: Option<f64>,
    attained: Option<f64>,
    bound: Option<String>,
}

impl Measured {
    fn of(k: Option<&KernelProfile>, m: Option<&Machine>) -> Measured {
        let Some(k) = k else { return Measured { time_s: None, flops_per_s: None, attained: None, bound: None } };
        let time_s = time_of(k);
        let per_inst = m.and_then(|m| m.flops_per_tensor_inst);
        let flops_per_s = k.total_flops(per_inst).zip(time_s.filter(|t| *t > 0.0)).map(|(f, t)| f / t);
        let g = m.and_then(|m| guide(k, m));
        Measured { time_s, flops_per_s, attained: g.as_ref().map(|g| g.attained_fraction), bound: g.map(|g| g.binding.name) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::{Counter, Counters};

    fn k(name: &str, time: Option<f64>) -> KernelProfile {
        let mut c = Counters::default();
        if let Some(t) = time {
            c.set(Counter::TimeS, t);
        }
        KernelProfile { name: name.into(), launches: 1, counters: c }
    }

    #[test]
    fn amdahl_identity_and_order() {
        let before = [k("a", Some(4.0)), k("b", Some(2.0)), k("gone", Some(1.0)), k("untimed", None)];
        let after = [k("a", Some(1.0)), k("b", Some(3.0)), k("new", Some(0.5)), k("untimed", None)];
        let p = pair(&["a", "b", "gone", "untimed"], &["a", "b", "new", "untimed"], &UserPairs::default()).unwrap();
        let c = compare(Side { kernels: &before, machine: None }, Side { kernels: &after, machine: None }, &p);
        // Before 4 + 2 + 1 = 7 s; after 1 + 3 + 0.5 = 4.5 s; 7 / 4.5 = 1.5556.
        assert_eq!((c.before_time_s, c.after_time_s), (7.0, 4.5));
        assert_eq!(c.run_speedup, Some(7.0 / 4.5));
        // a saved 3 s (3/7 of the run), b lost 1 s; untimed last.
        let order: Vec<_> = c.pairs.iter().map(|p| (p.before.as_str(), p.saved_s, p.share_of_run)).collect();
        assert_eq!(order, vec![("a", Some(3.0), Some(3.0 / 7.0)), ("b", Some(-1.0), Some(-1.0 / 7.0)), ("untimed", None, None)]);
        // 7 − 4.5 = 2.5 = (3 − 1) + 1 − 0.5.
        assert_eq!(c.paired_saved_s + c.removed_time_s - c.added_time_s, c.before_time_s - c.after_time_s);
        assert_eq!(c.pairs[0].speedup, Some(4.0));
    }
}
