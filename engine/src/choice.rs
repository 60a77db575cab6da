//! Which machine a dataset is drawn against, at which clock, and the sentence that says why
//! (issue 12; docs/MODEL.md, "Which machine, which clock").
//!
//! - **The machine.** One the user named (`--machine`, the app's picker) wins; else one that
//!   a machine file among the inputs describes (ERT, Advisor roofs, rocprof-compute); else the
//!   profile's own device ([`crate::model::identify`]): with the profiler's own peaks when the
//!   file carries them (Nsight Compute full-set reports and raw pages: "as Nsight Compute
//!   measured it"), else its catalogue entry; else none, and no roof is invented.
//! - **The clock.** Ceilings that scale with the SM clock (vector and matrix peaks, issue
//!   rate, L1/shared and L2) are evaluated at the clock the kernels ran at, measured in the
//!   profile (time-weighted over launches, [`crate::dataset::Dataset::measured_sm_clock_hz`]).
//!   Without a measured clock: the base clock for Nsight Compute files (it locks clocks to
//!   base by default, `--clock-control base`), else the machine's stated clock. Base, boost or
//!   any frequency can be asked for instead.
//! - **A CPU profile** (Intel Advisor's loops, [`is_cpu_profile`]) is drawn against the roofs
//!   its files describe, else a CPU the user picks; [`fallback_machine`] gives the app and the
//!   link a catalogue CPU meanwhile, never the GPU shown before.
//! - **Volta's 512 FLOPs per tensor instruction** is only applied to a profile that ran on
//!   Volta: picking a V100 for an Ampere profile must not turn its HMMA count into FLOPs.

use crate::dataset::Dataset;
use crate::domain::Device;
use crate::model::catalogue;
use crate::model::identify::{identify, Identified, Match};
use crate::model::profile_peaks::profile_machine;
use crate::model::Machine;
use serde::{Deserialize, Serialize};

/// Where the machine came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Chosen {
    /// The profile's own device.
    Profile,
    /// The user named it (`--machine`, the picker).
    Option,
    /// A machine file among the inputs (ERT, Advisor roofs, rocprof-compute).
    File,
}

/// Which clock the user asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ClockChoice {
    /// The clock measured in the profile (the default), with the fallbacks of the module doc.
    #[default]
    Measured,
    Base,
    Boost,
    /// A frequency, Hz.
    Hz(f64),
}

impl ClockChoice {
    /// `measured`, `base`, `boost`, or a frequency in MHz (`1312`) or with a unit (`1.3GHz`,
    /// `765MHz`, `1.5e9Hz`).
    pub fn parse(text: &str) -> Result<ClockChoice, String> {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "measured" | "auto" => return Ok(ClockChoice::Measured),
            "base" => return Ok(ClockChoice::Base),
            "boost" => return Ok(ClockChoice::Boost),
            _ => {}
        }
        let lower = t.to_ascii_lowercase();
        let (number, scale) = if let Some(n) = lower.strip_suffix("ghz") {
            (n, 1e9)
        } else if let Some(n) = lower.strip_suffix("mhz") {
            (n, 1e6)
        } else if let Some(n) = lower.strip_suffix("hz") {
            (n, 1.0)
        } else {
            (lower.as_str(), 1e6)
        };
        match number.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(ClockChoice::Hz(v * scale)),
            _ => Err(format!("the clock is measured, base, boost or a frequency (1312 for MHz, 1.3GHz), not {t:?}")),
        }
    }
}

/// The clock the ceilings are evaluated at, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockBasis {
    /// Measured in the profile.
    Measured,
    /// The data sheet's base clock.
    Base,
    /// The data sheet's boost clock.
    Boost,
    /// A frequency the user gave.
    Given,
    /// The clock the machine's peaks are stated at (a machine file's, or one without base and
    /// boost clocks).
    Stated,
}

/// A dataset's machine at its clock, where it came from, and what to tell the user.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineChoice {
    pub machine: Machine,
    pub chosen: Chosen,
    pub clock: ClockBasis,
    /// "Profiled on NVIDIA A100-PCIE-40GB (sm_80, 108 SMs) at 765 MHz measured: roofs of
    /// NVIDIA A100 PCIe 40GB at 765 MHz (measured)".
    pub sentence: String,
    /// What the user should know: several devices, a machine that differs from the profile's
    /// device, an assumed machine, a tensor factor not applied.
    pub warnings: Vec<String>,
    /// Other machines the profile offers (the data-sheet entry beside the one "as Nsight
    /// Compute measured it", and the reverse), at the same clock.
    pub alternatives: Vec<Machine>,
}

/// The machine the profile's own device is, without a user's choice: its profiler's peaks
/// where the file carries them (with the catalogue entry as an alternative), else its
/// catalogue (or derived) entry.
pub fn profile_machines(ds: &Dataset) -> Option<(Machine, Vec<Machine>, Option<Identified>)> {
    let run = ds.main_device()?;
    let measured = ds.measured_sm_clock_hz();
    let found = identify(&run.device, measured);
    let catalogue = found.as_ref().map(|i| i.machine.clone());
    match profile_machine(&run.device, measured, catalogue.as_ref()) {
        Some(own) => Some((own, catalogue.into_iter().collect(), found)),
        None => catalogue.map(|m| (m, Vec::new(), found)),
    }
}

/// The formats whose kernels are a CPU's loops and functions: Intel Advisor's CPU survey, and
/// its HTML report when it names no GPU (a GPU report's `GPU Info` names one: Advisor's own
/// page tells the two apart by it).
const CPU_PROFILE_FORMATS: [&str; 2] = ["advisor-survey", "advisor-html"];

/// Whether `ds` profiles a CPU: its kernels come from a CPU profiler's file and no file names a
/// device (GPU) they ran on.
pub fn is_cpu_profile(ds: &Dataset) -> bool {
    !ds.kernels.is_empty() && ds.main_device().is_none() && ds.files.iter().any(|f| CPU_PROFILE_FORMATS.contains(&f.format))
}

/// The machine drawn when [`choose`] finds none and the user named none: `current` (the app's
/// machine on screen, the link's V100 as the app starts), except that a CPU profile gets
/// `current` only when it is a CPU, else the catalogue's [`catalogue::default_cpu`]: a loop's
/// fraction of a GPU's roofs means nothing. [`no_machine_reason`] asks for the right one.
pub fn fallback_machine(ds: &Dataset, current: Machine) -> Machine {
    if is_cpu_profile(ds) && !catalogue::is_cpu(&current) {
        catalogue::default_cpu()
    } else {
        current
    }
}

/// Chooses the machine and clock for `ds` (module doc). `given`: a machine the user named.
/// Errors: a clock the machine cannot be evaluated at (`base` for a machine without one).
pub fn choose(ds: &Dataset, given: Option<Machine>, clock: ClockChoice) -> Result<Option<MachineChoice>, String> {
    let device = ds.main_device().map(|r| r.device.clone());
    let measured = ds.measured_sm_clock_hz();
    let mut warnings = Vec::new();
    let profile = profile_machines(ds);
    let (machine, chosen, mut alternatives) = match (given, &ds.machine, &profile) {
        (Some(m), _, _) => (m, Chosen::Option, Vec::new()),
        (None, Some(m), _) => (m.clone(), Chosen::File, Vec::new()),
        (None, None, Some((m, alts, _))) => (m.clone(), Chosen::Profile, alts.clone()),
        (None, None, None) => return Ok(None),
    };
    if let Some((_, _, Some(found))) = &profile {
        if let (Chosen::Profile, Some(note)) = (chosen, &found.note) {
            warnings.push(note.clone());
        }
        if chosen == Chosen::Option {
            if let Some(w) = mismatch(device.as_ref(), &found.machine, &machine) {
                warnings.push(w);
            }
        }
    }
    if ds.devices.runs.len() > 1 {
        warnings.push(several_devices(ds));
    }
    let from_ncu = ds.files.iter().any(|f| f.format.starts_with("ncu"));
    let (mut machine, basis) = at_clock(machine, clock, measured, from_ncu)?;
    alternatives = alternatives.into_iter().filter_map(|m| at_clock(m, clock, measured, from_ncu).ok().map(|(m, _)| m)).collect();
    if let Some(w) = guard_tensor_factor(&mut machine, device.as_ref()) {
        warnings.push(w);
    }
    if let Some(w) = tensor_without_ops(ds, &machine, device.as_ref()) {
        warnings.push(w);
    }
    if let Some(w) = unpublished_base(&machine, basis, from_ncu) {
        warnings.push(w);
    }
    let mut sentence = sentence_of(device.as_ref(), measured, &machine, chosen, basis, is_cpu_profile(ds) || catalogue::is_cpu(&machine));
    sentence.push_str(&kernel_clocks_clause(&machine, &ds.kernels));
    Ok(Some(MachineChoice { machine, chosen, clock: basis, sentence, warnings, alternatives }))
}

/// Why [`choose`] found no machine for `ds` without a user's choice: the device the files name
/// is unknown, or they name none. For the report's `warnings` and the CLI's stderr.
pub fn no_machine_reason(ds: &Dataset) -> String {
    if is_cpu_profile(ds) {
        return "the files do not say which CPU ran them and describe no roofs: choose a CPU machine to draw roofs (Intel Advisor's `--report=roofs` CSV, loaded with them, gives the roofs it measured)".into();
    }
    match ds.main_device() {
        Some(run) if run.device.known_by_index_only() => format!(
            "the files name the GPU only by its index ({}), not what it is: choose its machine to draw roofs (a rocprof-compute workload's sysinfo.csv, dropped with them, describes it)",
            run.device.describe()
        ),
        Some(run) => format!(
            "{} is not a GPU this version knows, and the files carry neither its peaks nor enough of its attributes to derive them: choose its machine to draw roofs",
            run.device.describe()
        ),
        None => "the files do not say which GPU ran them and describe no machine: choose a machine to draw roofs".into(),
    }
}

/// The machine evaluated at the chosen clock.
pub fn at_clock(m: Machine, clock: ClockChoice, measured: Option<f64>, from_ncu: bool) -> Result<(Machine, ClockBasis), String> {
    let stated = m.clock_hz;
    let (hz, basis) = match clock {
        ClockChoice::Measured => match (measured, from_ncu.then_some(m.base_clock_hz).flatten()) {
            (Some(hz), _) => (Some(hz), ClockBasis::Measured),
            (None, Some(base)) => (Some(base), ClockBasis::Base),
            (None, None) => (stated, ClockBasis::Stated),
        },
        ClockChoice::Base => (Some(m.base_clock_hz.ok_or_else(|| format!("{} states no base clock", m.name))?), ClockBasis::Base),
        ClockChoice::Boost => (Some(m.boost_clock_hz.ok_or_else(|| format!("{} states no boost clock", m.name))?), ClockBasis::Boost),
        ClockChoice::Hz(hz) => (Some(hz), ClockBasis::Given),
    };
    match hz {
        Some(hz) if stated.is_some() => {
            let mut at = m.at_clock(hz);
            // At the measured clock, each kernel at its own ([`Machine::per_kernel_clock`]).
            at.per_kernel_clock = basis == ClockBasis::Measured;
            Ok((at, basis))
        }
        Some(_) if clock != ClockChoice::Measured => Err(format!("{} states no clock, so its ceilings cannot be rescaled", m.name)),
        _ => Ok((m, ClockBasis::Stated)),
    }
}

/// The warning when an Nsight Compute profile without a measured clock is drawn at a GPU's
/// stated clock because its maker publishes no base clock: Nsight Compute locked the clock
/// to one (by default), so the roofs may be higher than the kernels could reach.
fn unpublished_base(m: &Machine, basis: ClockBasis, from_ncu: bool) -> Option<String> {
    (from_ncu && basis == ClockBasis::Stated && m.base_clock_hz.is_none() && m.clock_hz.is_some()).then(|| {
        format!(
            "the files carry no measured clock and NVIDIA publishes no base clock for the {}: the roofs are at its stated {}, while Nsight Compute locks the clock to base by default (collect sm__cycles_elapsed.avg.per_second, or profile with --clock-control none)",
            m.name,
            mhz(m.clock_hz.unwrap_or(0.0))
        )
    })
}

/// What the sentence above the chart adds when each kernel is judged at its own clock
/// ([`Machine::per_kernel_clock`]) and their clocks differ: "; each kernel judged at its own
/// clock, 1360–1499 MHz". Empty otherwise. [`choose`], the app and a link's chart append it.
pub fn kernel_clocks_clause(m: &Machine, kernels: &[crate::domain::KernelProfile]) -> String {
    match kernel_clock_range(kernels).filter(|_| m.per_kernel_clock) {
        Some((lo, hi)) => format!("; each kernel judged at its own clock, {:.0}–{}", lo / 1e6, mhz(hi)),
        None => String::new(),
    }
}

/// The lowest and highest SM clock the kernels ran at (each kernel's time-weighted measured
/// clock), where they differ by more than 1%: the range the sentence names when each kernel
/// is judged at its own clock.
pub fn kernel_clock_range(kernels: &[crate::domain::KernelProfile]) -> Option<(f64, f64)> {
    let clocks = kernels.iter().filter_map(|k| k.counters.get(crate::domain::counters::Counter::ClockHz)).filter(|h| h.is_finite() && *h > 0.0);
    let (lo, hi) = clocks.fold((f64::INFINITY, 0.0_f64), |(lo, hi), h| (lo.min(h), hi.max(h)));
    (hi > 0.0 && hi > lo * 1.01).then_some((lo, hi))
}

/// Clears a per-architecture tensor factor (Volta's 512 FLOPs per HMMA) when the profile ran
/// on another architecture, and says so.
fn guard_tensor_factor(m: &mut Machine, device: Option<&Device>) -> Option<String> {
    let (factor, machine_arch, device_arch) = (m.flops_per_tensor_inst?, m.arch.as_deref()?, device?.arch.as_deref()?);
    if machine_arch == device_arch {
        return None;
    }
    m.flops_per_tensor_inst = None;
    Some(format!(
        "tensor instructions are not turned into FLOPs: {factor} FLOPs per instruction holds on {machine_arch} only, and the profile ran on {device_arch}"
    ))
}

/// The warning when kernels counted tensor instructions, but no tensor operations, on an
/// architecture where instructions are not a constant amount of work (the machine has no
/// FLOPs per instruction): the metrics that count operations and the command for that GPU
/// generation ([`crate::import::hints::tensor_ops_hint`]).
fn tensor_without_ops(ds: &Dataset, m: &Machine, device: Option<&Device>) -> Option<String> {
    if !ds.kernels.iter().any(|k| crate::model::guidance::tensor_work_unmeasured(k, m)) {
        return None;
    }
    let arch = device.and_then(|d| d.arch.as_deref()).or(m.arch.as_deref());
    let (message, commands) = crate::import::hints::tensor_ops_hint(arch)?;
    Some(format!("{message}: {}", commands.join("  or  ")))
}

/// The warning when the user's machine is not the profile's device.
fn mismatch(device: Option<&Device>, found: &Machine, picked: &Machine) -> Option<String> {
    let d = device?;
    let same = found.id == picked.id || (picked.arch.is_some() && picked.arch == d.arch && picked.sm_count.is_some() && picked.sm_count == d.sm_count);
    (!same).then(|| format!("the profile ran on {} but the roofs are those of {}: the fractions of roof are only as right as that choice", d.describe(), picked.name))
}

fn several_devices(ds: &Dataset) -> String {
    let mut runs: Vec<_> = ds.devices.runs.iter().collect();
    crate::order::sort_by(&mut runs, |a, b| b.kernel_time_s.total_cmp(&a.kernel_time_s));
    let describe = |r: &&crate::dataset::DeviceRun| format!("{} ({} s of kernels)", r.device.describe(), crate::units::si(r.kernel_time_s));
    let others: Vec<String> = runs.iter().skip(1).map(describe).collect();
    format!("the files name several devices: the roofs are those of {}, which ran the most kernel time; also {}", runs.first().map(describe).unwrap_or_default(), others.join(", "))
}

fn mhz(hz: f64) -> String {
    format!("{:.0} MHz", hz / 1e6)
}

/// The sentence above the chart (module doc). Where the files name no device it says "which
/// CPU" when `m` is a catalogue CPU, else "which GPU".
pub fn sentence(device: Option<&Device>, measured: Option<f64>, m: &Machine, chosen: Chosen, basis: ClockBasis) -> String {
    sentence_of(device, measured, m, chosen, basis, catalogue::is_cpu(m))
}

/// [`sentence`], `cpu` saying whether the profile is a CPU's.
fn sentence_of(device: Option<&Device>, measured: Option<f64>, m: &Machine, chosen: Chosen, basis: ClockBasis, cpu: bool) -> String {
    let processor = if cpu { "CPU" } else { "GPU" };
    let ran = match (device, measured) {
        (Some(d), Some(hz)) => format!("Profiled on {} at {} measured", d.describe(), mhz(hz)),
        (Some(d), None) => format!("Profiled on {}", d.describe()),
        (None, Some(hz)) => format!("The files do not say which {processor} ran them (measured at {})", mhz(hz)),
        (None, None) => format!("The files do not say which {processor} ran them"),
    };
    let clock = match (m.clock_hz, basis) {
        (Some(hz), ClockBasis::Measured) => format!(" at {} (measured)", mhz(hz)),
        (Some(hz), ClockBasis::Base) => format!(" at {} (base clock)", mhz(hz)),
        (Some(hz), ClockBasis::Boost) => format!(" at {} (boost clock)", mhz(hz)),
        (Some(hz), ClockBasis::Given) => format!(" at {} (as given)", mhz(hz)),
        (Some(hz), ClockBasis::Stated) => format!(" at {}", mhz(hz)),
        (None, _) => String::new(),
    };
    let whose = match chosen {
        Chosen::Profile => "roofs of",
        Chosen::Option => "roofs of the chosen",
        Chosen::File => "roofs from the machine file,",
    };
    format!("{ran}: {whose} {}{clock}", m.name)
}

/// What a page shows about a machine it draws for a profile: the sentence, and the warning
/// when it is not the profile's own device — recomputed as the user picks machines and clocks
/// (the app), or from what a link carries. `identified`: the machine the profile's device is
/// ([`identify`]), if any.
pub fn note(device: Option<&Device>, measured: Option<f64>, m: &Machine, chosen: Chosen, basis: ClockBasis, identified: Option<&Machine>) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    if chosen == Chosen::Option {
        let found = identified.cloned().or_else(|| identify(device?, measured).map(|i| i.machine));
        if let Some(w) = found.as_ref().and_then(|f| mismatch(device, f, m)) {
            warnings.push(w);
        }
    }
    (sentence(device, measured, m, chosen, basis), warnings)
}

/// How the profile's device was matched, for reports.
pub fn match_of(ds: &Dataset) -> Option<Match> {
    profile_machines(ds).and_then(|(_, _, found)| found.map(|f| f.how))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_words_and_frequencies() {
        assert_eq!(ClockChoice::parse("measured"), Ok(ClockChoice::Measured));
        assert_eq!(ClockChoice::parse("BASE"), Ok(ClockChoice::Base));
        assert_eq!(ClockChoice::parse("1312"), Ok(ClockChoice::Hz(1.312e9)));
        assert_eq!(ClockChoice::parse("765MHz"), Ok(ClockChoice::Hz(765e6)));
        assert_eq!(ClockChoice::parse("1.3GHz"), Ok(ClockChoice::Hz(1.3e9)));
        assert!(ClockChoice::parse("fast").is_err());
        assert!(ClockChoice::parse("-5").is_err());
    }
}
