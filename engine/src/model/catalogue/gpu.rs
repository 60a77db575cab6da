//! One GPU's catalogue entry from its data sheet: every GPU fills the identity fields, clocks
//! and peak sets the same way, so each vendor file states only numbers and their sources.
//!
//! The issue model and transaction sizes of the Instruction Roofline (Ding & Williams 2019,
//! §III-A) and the FLOPs per tensor instruction come from the architecture's rates
//! ([`super::arch`]), so that a catalogue GPU and a GPU derived from its attributes agree.

use super::arch::arch_rates;
use super::{finish, set};
use crate::domain::Vendor;
use crate::model::machine::{Ceiling, Issue, Link, Machine, MemoryLevel, PeakSet};
use crate::units::MEGA;

/// Bytes in a binary gibibyte / mebibyte: GPU memory and cache capacities are powers of two
/// ("80GB" of HBM is 80 GiB; a device reports a little less, what ECC and the driver reserve).
pub(super) const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
pub(super) const MIB: f64 = 1024.0 * 1024.0;

/// The `base_mhz` of a GPU whose maker publishes no base clock (NVIDIA's SXM modules after
/// the H100 SXM5, Blackwell): the entry states none, so `--clock base` says so instead of
/// drawing roofs at an invented clock.
pub(super) const UNPUBLISHED: f64 = f64::NAN;

/// A GPU as its data sheet describes it. `clock_mhz` is the clock every peak in `compute` holds
/// at (and the on-chip bandwidths in `memory`), so that [`Machine::at_clock`] rescales them.
pub(super) struct Gpu {
    pub id: &'static str,
    pub name: &'static str,
    pub vendor: Vendor,
    pub arch: &'static str,
    pub generation: &'static str,
    pub sms: u32,
    /// [`UNPUBLISHED`] where no source states it.
    pub base_mhz: f64,
    pub boost_mhz: f64,
    pub clock_mhz: f64,
    pub memory_gib: f64,
    pub l2_mib: Option<f64>,
    /// Short: it travels in links. The doc comment of the entry has the details.
    pub source: &'static str,
    pub compute: Vec<Ceiling>,
    pub memory: Vec<MemoryLevel>,
    pub empirical: Option<PeakSet>,
    pub links: Vec<Link>,
}

impl Gpu {
    pub fn build(self) -> Machine {
        let rates = arch_rates(self.arch);
        let transaction_bytes = rates.and_then(|r| r.transaction_bytes.clone());
        // The Instruction Roofline's issue model is defined for NVIDIA GPUs with 32-byte sectors
        // (Volta on); AMD's variant counts 64-wide wavefronts and other transaction sizes.
        let issue = match (rates, &transaction_bytes) {
            (Some(r), Some(_)) if self.vendor == Vendor::Nvidia => Some(Issue {
                compute_units: self.sms,
                schedulers_per_unit: r.schedulers_per_sm,
                inst_per_cycle_per_scheduler: 1.0,
                threads_per_warp: r.warp_size,
            }),
            _ => None,
        };
        finish(Machine {
            id: self.id.into(),
            name: self.name.into(),
            source: self.source.into(),
            vendor: Some(self.vendor),
            arch: Some(self.arch.into()),
            generation: Some(self.generation.into()),
            sm_count: Some(self.sms),
            memory_bytes: Some(self.memory_gib * GIB),
            l2_bytes: self.l2_mib.map(|m| m * MIB),
            flops_per_tensor_inst: rates.and_then(|r| r.flops_per_tensor_inst),
            clock_hz: Some(self.clock_mhz * MEGA),
            base_clock_hz: self.base_mhz.is_finite().then_some(self.base_mhz * MEGA),
            boost_clock_hz: Some(self.boost_mhz * MEGA),
            issue,
            transaction_bytes,
            theoretical: set(self.source, self.compute, self.memory),
            empirical: self.empirical,
            links: self.links,
            ..Default::default()
        })
    }
}

/// Scales a data-sheet peak stated at `stated_mhz` to the entry's `clock_mhz`: per-cycle rates
/// times clock, so a peak NVIDIA computes at a lower "tensor" clock holds at the boost clock
/// as rate × boost (and [`Machine::at_clock`] gives the data-sheet value back at that clock).
pub(super) fn at(value: f64, stated_mhz: f64, clock_mhz: f64) -> f64 {
    value * clock_mhz / stated_mhz
}
