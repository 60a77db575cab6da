//! A view's machine choice ([`ViewChoice`]) in the binary payload: one byte each for where
//! the machine came from and which clock, then the profile's device (name, vendor,
//! architecture, SM count) and measured SM clock, each behind a flag bit. Written after the
//! view's word size when the view's `HAS_CHOICE` flag is set (a link older builds refuse as
//! "fields v1 does not define": made by a newer version).

use super::view::ViewChoice;
use super::wire::{damaged, Reader, Writer};
use super::DecodeError;
use crate::choice::{ClockBasis, Chosen};
use crate::domain::{Device, Vendor};

const CHOSEN: [Chosen; 3] = [Chosen::Profile, Chosen::Option, Chosen::File];
const CLOCKS: [ClockBasis; 5] = [ClockBasis::Measured, ClockBasis::Base, ClockBasis::Boost, ClockBasis::Given, ClockBasis::Stated];
const VENDORS: [Vendor; 3] = [Vendor::Nvidia, Vendor::Amd, Vendor::Intel];

const HAS_CHOSEN: u64 = 1 << 0;
const HAS_CLOCK: u64 = 1 << 1;
const HAS_NAME: u64 = 1 << 2;
const HAS_VENDOR: u64 = 1 << 3;
const HAS_ARCH: u64 = 1 << 4;
const HAS_SM_COUNT: u64 = 1 << 5;
const HAS_MEASURED_CLOCK: u64 = 1 << 6;
const KNOWN: u64 = (1 << 7) - 1;

/// The position of `x` in `all` (the frozen code), 0 if absent (never: `all` lists every variant).
fn code<T: PartialEq>(all: &[T], x: &T) -> u8 {
    all.iter().position(|a| a == x).map_or(0, |i| i as u8)
}

fn of<T: Copy>(all: &[T], code: u8, what: &str) -> Result<T, DecodeError> {
    all.get(usize::from(code)).copied().ok_or_else(|| damaged(&format!("unknown {what} {code}")))
}

pub fn write(w: &mut Writer, c: &ViewChoice) {
    let d = c.device.as_ref();
    let flags = [
        (c.chosen.is_some(), HAS_CHOSEN),
        (c.clock.is_some(), HAS_CLOCK),
        (d.and_then(|d| d.name.as_ref()).is_some(), HAS_NAME),
        (d.and_then(|d| d.vendor).is_some(), HAS_VENDOR),
        (d.and_then(|d| d.arch.as_ref()).is_some(), HAS_ARCH),
        (d.and_then(|d| d.sm_count).is_some(), HAS_SM_COUNT),
        (c.measured_sm_clock_hz.is_some_and(f64::is_finite), HAS_MEASURED_CLOCK),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |acc, (_, bit)| acc | bit);
    w.varint(flags);
    if let Some(x) = &c.chosen {
        w.u8(code(&CHOSEN, x));
    }
    if let Some(x) = &c.clock {
        w.u8(code(&CLOCKS, x));
    }
    if let Some(d) = d {
        if let Some(n) = &d.name {
            w.str(n);
        }
        if let Some(v) = &d.vendor {
            w.u8(code(&VENDORS, v));
        }
        if let Some(a) = &d.arch {
            w.str(a);
        }
        if let Some(n) = d.sm_count {
            w.varint(u64::from(n));
        }
    }
    if let Some(hz) = c.measured_sm_clock_hz.filter(|h| h.is_finite()) {
        w.decimal(hz);
    }
}

pub fn read(r: &mut Reader) -> Result<ViewChoice, DecodeError> {
    let flags = r.varint("choice flags")?;
    if flags & !KNOWN != 0 {
        return Err(damaged("the machine choice has fields this version does not define"));
    }
    let chosen = if flags & HAS_CHOSEN != 0 { Some(of(&CHOSEN, r.u8("machine choice")?, "machine choice")?) } else { None };
    let clock = if flags & HAS_CLOCK != 0 { Some(of(&CLOCKS, r.u8("clock choice")?, "clock choice")?) } else { None };
    let name = if flags & HAS_NAME != 0 { Some(r.str("device name")?) } else { None };
    let vendor = if flags & HAS_VENDOR != 0 { Some(of(&VENDORS, r.u8("vendor")?, "vendor")?) } else { None };
    let arch = if flags & HAS_ARCH != 0 { Some(r.str("device architecture")?) } else { None };
    let sm_count = if flags & HAS_SM_COUNT != 0 { Some(r.count(u64::from(u32::MAX), "SM count")? as u32) } else { None };
    let measured_sm_clock_hz = if flags & HAS_MEASURED_CLOCK != 0 { Some(r.decimal("measured clock")?) } else { None };
    let has_device = flags & (HAS_NAME | HAS_VENDOR | HAS_ARCH | HAS_SM_COUNT) != 0;
    let device = has_device.then(|| Device { name, vendor, arch, sm_count, ..Device::default() });
    Ok(ViewChoice { chosen, clock, device, measured_sm_clock_hz })
}
