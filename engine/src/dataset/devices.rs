//! Which devices ran a dataset's launches, how much kernel time each ran, and the SM clock
//! measured on each.
//!
//! The measured clock is time-weighted over launches: Σcycles / Σ(cycles / clock), the clock
//! that turns the run's total cycles into its total time (a launch-weighted mean of clocks
//! would let a thousand 5 µs launches outvote one 10 s launch). Where a file has durations
//! and cycles but no clock metric, Σcycles / Σduration stands in for it (a little low: the
//! duration includes launch overhead). Where a file has a clock and durations but no cycles
//! (Nsight Compute's SpeedOfLight section alone reports its elapsed cycles as
//! `gpc__cycles_elapsed.max`, which is not read), the clocks are weighted by the durations:
//! Σ(clock × duration) / Σduration.

use crate::domain::{Counter, Counters, Device};
use crate::import::stream::LaunchRef;
use serde::{Deserialize, Serialize};

/// A device and what ran on it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceRun {
    pub device: Device,
    /// Kernel time measured on it (durations, else cycles ÷ clock), seconds.
    pub kernel_time_s: f64,
    pub launches: u64,
    #[serde(skip)]
    stats: ClockStats,
}

/// Sums behind a measured clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClockStats {
    /// Σ cycles and Σ cycles / clock over launches that measured both (a launch with a clock
    /// and a duration but no cycles adds clock × duration and its duration).
    cycles: f64,
    cycle_time_s: f64,
    /// Σ cycles and Σ duration over launches with cycles and a duration but no clock.
    timed_cycles: f64,
    duration_s: f64,
}

impl ClockStats {
    /// Adds `count` launches with these per-launch counters.
    pub fn add(&mut self, counters: &Counters, count: u64) {
        let n = count as f64;
        let cycles = counters.get(Counter::Cycles).filter(|c| c.is_finite() && *c > 0.0);
        let hz = counters.get(Counter::ClockHz).filter(|h| h.is_finite() && *h > 0.0);
        match (cycles, hz, counters.get(Counter::TimeS).filter(|t| t.is_finite() && *t > 0.0)) {
            (Some(c), Some(h), _) => {
                self.cycles += c * n;
                self.cycle_time_s += c / h * n;
            }
            (Some(c), None, Some(t)) => {
                self.timed_cycles += c * n;
                self.duration_s += t * n;
            }
            (None, Some(h), Some(t)) => {
                self.cycles += h * t * n;
                self.cycle_time_s += t * n;
            }
            _ => {}
        }
    }

    pub fn merge(&mut self, other: &ClockStats) {
        self.cycles += other.cycles;
        self.cycle_time_s += other.cycle_time_s;
        self.timed_cycles += other.timed_cycles;
        self.duration_s += other.duration_s;
    }

    /// The measured SM clock, Hz: Σcycles / Σ(cycles / clock), else Σcycles / Σduration.
    pub fn clock_hz(&self) -> Option<f64> {
        if self.cycle_time_s > 0.0 {
            Some(self.cycles / self.cycle_time_s)
        } else if self.duration_s > 0.0 {
            Some(self.timed_cycles / self.duration_s)
        } else {
            None
        }
    }

    /// Whether the clock came from a clock metric (not from cycles ÷ duration).
    pub fn from_clock_metric(&self) -> bool {
        self.cycle_time_s > 0.0
    }
}

impl DeviceRun {
    /// The SM clock the launches on this device ran at, time-weighted (module doc).
    pub fn measured_sm_clock_hz(&self) -> Option<f64> {
        self.stats.clock_hz()
    }

    pub fn clock_stats(&self) -> &ClockStats {
        &self.stats
    }

    /// The run with these clock sums (what `dataset::wire` carries beside it).
    pub fn with_stats(mut self, stats: ClockStats) -> Self {
        self.stats = stats;
        self
    }
}

/// Per-device sums of one file being read, by the file's device index (`None`: launches the
/// file does not attribute).
#[derive(Default)]
pub struct FileDevices {
    by_index: Vec<(f64, u64, ClockStats)>,
    unattributed: (f64, u64, ClockStats),
}

impl FileDevices {
    pub fn add(&mut self, l: &LaunchRef<'_>) {
        let slot = match l.device {
            Some(i) => {
                let i = usize::from(i);
                if self.by_index.len() <= i {
                    self.by_index.resize(i + 1, (0.0, 0, ClockStats::default()));
                }
                match self.by_index.get_mut(i) {
                    Some(s) => s,
                    None => return,
                }
            }
            None => &mut self.unattributed,
        };
        let time = l.counters.get(Counter::TimeS).or_else(|| crate::dataset::totals::cycle_time_s(l.counters)).filter(|t| t.is_finite() && *t > 0.0);
        slot.0 += time.unwrap_or(0.0) * l.count as f64;
        slot.1 = slot.1.saturating_add(l.count);
        slot.2.add(l.counters, l.count);
    }
}

/// Every device of a dataset, and the launches no file attributed to one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Devices {
    pub runs: Vec<DeviceRun>,
    /// Clock sums of launches without a device (a file that names none).
    pub unattributed: ClockStats,
}

impl Devices {
    /// Adds one file's devices (as its importer described them) and its per-device sums.
    /// A device that agrees with one already known ([`Device::agrees_with`]) is the same
    /// device, its description completed; another is a device of its own.
    pub fn add_file(&mut self, devices: &[Device], sums: FileDevices) {
        for (i, (time_s, launches, stats)) in sums.by_index.into_iter().enumerate() {
            let Some(d) = devices.get(i) else {
                self.unattributed.merge(&stats);
                continue;
            };
            let run = self.find_or_add(d);
            run.kernel_time_s += time_s;
            run.launches = run.launches.saturating_add(launches);
            run.stats.merge(&stats);
        }
        // A file that names its device without attributing launches (a summary with a
        // device header) still names it; its launches stay unattributed.
        for d in devices {
            self.find_or_add(d);
        }
        self.unattributed.merge(&sums.unattributed.2);
    }

    fn find_or_add(&mut self, d: &Device) -> &mut DeviceRun {
        let i = match self.runs.iter().position(|r| same_device(&r.device, d)) {
            Some(i) => {
                if let Some(r) = self.runs.get_mut(i) {
                    if index_named(&r.device) && !index_named(d) {
                        r.device.name = d.name.clone();
                    }
                    r.device.fill_from(d);
                    r.device = std::mem::take(&mut r.device).normalised();
                }
                self.absorb_indexed(i);
                i
            }
            None => {
                self.runs.push(DeviceRun { device: d.clone().normalised(), ..DeviceRun::default() });
                self.runs.len() - 1
            }
        };
        &mut self.runs[i]
    }

    /// Folds into run `i`, once it is a described GPU, the other runs known by index only that
    /// it describes (the tables of a workload on several GPUs of the model its `sysinfo.csv`
    /// names): whichever file came first, they end as one device, as nvprof's "Tesla V100 (0)"
    /// and "(1)" are one.
    fn absorb_indexed(&mut self, i: usize) {
        let Some(target) = self.runs.get(i).map(|r| r.device.clone()) else { return };
        if index_named(&target) {
            return;
        }
        let mut j = 0;
        while j < self.runs.len() {
            let joins = j != i && self.runs.get(j).is_some_and(|r| index_joins(&r.device, &target));
            if !joins {
                j += 1;
                continue;
            }
            let other = self.runs.remove(j);
            let at = if j < i { i - 1 } else { i };
            if let Some(r) = self.runs.get_mut(at) {
                r.kernel_time_s += other.kernel_time_s;
                r.launches = r.launches.saturating_add(other.launches);
                r.stats.merge(&other.stats);
            }
            return self.absorb_indexed(at);
        }
    }

    /// The device that ran the most kernel time (the first named on a tie).
    pub fn main(&self) -> Option<&DeviceRun> {
        self.runs.iter().fold(None, |best: Option<&DeviceRun>, r| match best {
            Some(b) if b.kernel_time_s >= r.kernel_time_s => Some(b),
            _ => Some(r),
        })
    }

    /// The SM clock measured on the main device, else over every launch.
    pub fn measured_sm_clock_hz(&self) -> Option<f64> {
        let main = self.main().and_then(DeviceRun::measured_sm_clock_hz);
        main.or_else(|| {
            let mut all = self.unattributed;
            self.runs.iter().for_each(|r| all.merge(&r.stats));
            all.clock_hz()
        })
    }
}

/// Whether two descriptions are one device: they agree ([`Device::agrees_with`]), or one is a
/// GPU that rocprof's tables know by index only ("GPU 2", `GPU_ID`) and the other the GPU that
/// rocprof-compute's `sysinfo.csv` describes (an AMD GPU with a gfx target, named by its
/// model, "MI300X_A1"): a workload's counter tables and its sysinfo are of the same GPU (issue
/// 41), and the joined device keeps the model's name.
pub fn same_device(a: &Device, b: &Device) -> bool {
    a.agrees_with(b) || index_joins(a, b) || index_joins(b, a)
}

/// A device named only by its index, "GPU 2" (`import::device_list::DeviceList::numbered`).
fn index_named(d: &Device) -> bool {
    d.name.as_deref().and_then(|n| n.strip_prefix("GPU ")).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `described` (a named AMD GPU with a gfx target) describes `index` (a GPU known by
/// index, with nothing said of it that differs).
fn index_joins(index: &Device, described: &Device) -> bool {
    fn same<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
        a.as_ref().zip(b.as_ref()).is_none_or(|(x, y)| x == y)
    }
    index_named(index)
        && !index_named(described)
        && described.name.is_some()
        && described.vendor == Some(crate::domain::Vendor::Amd)
        && described.arch.is_some()
        && index.vendor.is_none_or(|v| v == crate::domain::Vendor::Amd)
        && index.compute_capability.is_none()
        && same(&index.arch, &described.arch)
        && same(&index.sm_count, &described.sm_count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch<'a>(counters: &'a Counters, device: Option<u16>, count: u64) -> LaunchRef<'a> {
        LaunchRef { id: None, kernel: "k", count, counters, device }
    }

    #[test]
    fn clock_is_time_weighted_over_launches() {
        // 1.3e9 cycles at 1.3 GHz (1 s) and 10 launches of 1.2e6 cycles at 1.2 GHz (1 ms
        // each, 10 ms): (1.3e9 + 1.2e7) / (1 + 0.01) = 1.2990099e9 Hz; the launch-weighted
        // mean of the clocks would be (1.3 + 10 × 1.2) / 11 = 1.209 GHz.
        let a = Counters::from_pairs(&[(Counter::Cycles, 1.3e9), (Counter::ClockHz, 1.3e9)]);
        let b = Counters::from_pairs(&[(Counter::Cycles, 1.2e6), (Counter::ClockHz, 1.2e9)]);
        let mut f = FileDevices::default();
        f.add(&launch(&a, Some(0), 1));
        f.add(&launch(&b, Some(0), 10));
        let mut ds = Devices::default();
        ds.add_file(&[Device::named("Tesla V100-SXM2-16GB (0)")], f);
        let run = ds.main().expect("a device");
        assert_eq!(run.device.name.as_deref(), Some("Tesla V100-SXM2-16GB"));
        assert_eq!(run.launches, 11);
        assert!((run.kernel_time_s - 1.01).abs() < 1e-12);
        let hz = run.measured_sm_clock_hz().unwrap_or(0.0);
        assert!((hz - 1.312e9 / 1.01).abs() < 1.0, "{hz}");
    }

    #[test]
    fn most_kernel_time_wins_and_agreeing_files_merge() {
        let t = |s: f64| Counters::from_pairs(&[(Counter::TimeS, s)]);
        let (short, long) = (t(1.0), t(5.0));
        let mut f1 = FileDevices::default();
        f1.add(&launch(&short, Some(0), 1));
        f1.add(&launch(&long, Some(1), 1));
        let mut ds = Devices::default();
        ds.add_file(&[Device::named("NVIDIA A100-PCIE-40GB"), Device::named("NVIDIA H100 PCIe")], f1);
        let mut f2 = FileDevices::default();
        f2.add(&launch(&short, Some(0), 3));
        ds.add_file(&[Device { name: Some("NVIDIA A100-PCIE-40GB".into()), sm_count: Some(108), ..Device::default() }], f2);
        assert_eq!(ds.runs.len(), 2);
        assert_eq!(ds.runs[0].device.sm_count, Some(108));
        assert_eq!(ds.runs[0].kernel_time_s, 4.0);
        assert_eq!(ds.main().and_then(|r| r.device.name.as_deref()), Some("NVIDIA H100 PCIe"));
    }

    #[test]
    fn cycles_over_duration_stand_in_for_a_missing_clock() {
        // 2e9 cycles in 1.6 s: 1.25 GHz.
        let c = Counters::from_pairs(&[(Counter::Cycles, 2e9), (Counter::TimeS, 1.6)]);
        let mut f = FileDevices::default();
        f.add(&launch(&c, None, 1));
        let mut ds = Devices::default();
        ds.add_file(&[], f);
        assert_eq!(ds.measured_sm_clock_hz(), Some(1.25e9));
        assert!(!ds.unattributed.from_clock_metric());
    }

    #[test]
    fn a_clock_without_cycles_is_weighted_by_duration() {
        // 1.98 GHz for 0.3 ms and 1.5 GHz for 0.1 ms: (1.98e9 × 3e-4 + 1.5e9 × 1e-4) / 4e-4 =
        // (5.94e5 + 1.5e5) / 4e-4 = 1.86e9 Hz.
        let a = Counters::from_pairs(&[(Counter::ClockHz, 1.98e9), (Counter::TimeS, 3e-4)]);
        let b = Counters::from_pairs(&[(Counter::ClockHz, 1.5e9), (Counter::TimeS, 1e-4)]);
        let mut f = FileDevices::default();
        f.add(&launch(&a, None, 1));
        f.add(&launch(&b, None, 1));
        let mut ds = Devices::default();
        ds.add_file(&[], f);
        let hz = ds.measured_sm_clock_hz().expect("a clock");
        assert!((hz - 1.86e9).abs() < 1.0, "{hz}");
        assert!(ds.unattributed.from_clock_metric());
    }
}

