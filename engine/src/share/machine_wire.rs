//! A custom [`Machine`] in the binary payload: every field, values exact (shortest decimal,
//! [`Writer::decimal`]): a machine is a few dozen numbers, and ridge points such as V100's
//! 7.5 FLOP/byte must survive exactly.
//! Kinds and levels are one-byte codes ([`super::codes`]).

use super::codes::{ceiling_code, ceiling_of, level_code, level_of};
use super::wire::{damaged, Reader, Writer, MAX_STRING_BYTES};
use super::DecodeError;
use crate::domain::Vendor;
use crate::model::{Ceiling, Issue, Link, Machine, MemoryLevel, PeakSet, TransactionSizes};

/// Most ceilings, levels or links one list of a machine may have.
pub const MAX_MACHINE_LIST: usize = 256;

const HAS_TENSOR_FACTOR: u64 = 1 << 0;
const HAS_CLOCK: u64 = 1 << 1;
const HAS_BASE_CLOCK: u64 = 1 << 2;
const HAS_BOOST_CLOCK: u64 = 1 << 3;
const HAS_ISSUE: u64 = 1 << 4;
const HAS_TRANSACTION_BYTES: u64 = 1 << 5;
const HAS_THEORETICAL: u64 = 1 << 6;
const HAS_EMPIRICAL: u64 = 1 << 7;
/// The machine's identity (vendor, architecture, generation, SM count, memory and L2 sizes),
/// written after the host links where links made before these fields existed end.
const HAS_VENDOR: u64 = 1 << 8;
const HAS_ARCH: u64 = 1 << 9;
const HAS_GENERATION: u64 = 1 << 10;
const HAS_SM_COUNT: u64 = 1 << 11;
const HAS_MEMORY_BYTES: u64 = 1 << 12;
const HAS_L2_BYTES: u64 = 1 << 13;
const KNOWN_FLAGS: u64 = (1 << 14) - 1;

fn vendor_code(v: Vendor) -> u8 {
    match v {
        Vendor::Nvidia => 0,
        Vendor::Amd => 1,
        Vendor::Intel => 2,
    }
}

/// Why `m` cannot travel in a link, if it cannot: a non-finite number, an over-long string or
/// list. (Catalogue and imported machines always can.)
pub fn check(m: &Machine) -> Result<(), String> {
    let sets: Vec<(&[Ceiling], &[MemoryLevel])> =
        std::iter::once((m.compute.as_slice(), m.memory.as_slice())).chain([&m.theoretical, &m.empirical].into_iter().flatten().map(|s| (s.compute.as_slice(), s.memory.as_slice()))).collect();
    let mut numbers: Vec<(String, f64)> = Vec::new();
    let mut strings: Vec<&str> = vec![&m.id, &m.name, &m.source];
    strings.extend([&m.arch, &m.generation].into_iter().flatten().map(String::as_str));
    for (compute, memory) in &sets {
        if compute.len() > MAX_MACHINE_LIST || memory.len() > MAX_MACHINE_LIST {
            return Err(format!("the machine has more than {MAX_MACHINE_LIST} ceilings of one kind"));
        }
        numbers.extend(compute.iter().map(|c| (format!("ceiling {:?}", c.name), c.flops_per_s)));
        numbers.extend(memory.iter().map(|l| (format!("memory level {:?}", l.name), l.bytes_per_s)));
        strings.extend(compute.iter().map(|c| c.name.as_str()).chain(memory.iter().map(|l| l.name.as_str())));
    }
    strings.extend([&m.theoretical, &m.empirical].into_iter().flatten().map(|s| s.source.as_str()));
    if m.links.len() > MAX_MACHINE_LIST {
        return Err(format!("the machine has more than {MAX_MACHINE_LIST} host links"));
    }
    numbers.extend(m.links.iter().map(|l| (format!("link {:?}", l.name), l.bytes_per_s)));
    strings.extend(m.links.iter().map(|l| l.name.as_str()));
    let optional = [("FLOPs per tensor instruction", m.flops_per_tensor_inst), ("clock", m.clock_hz), ("base clock", m.base_clock_hz), ("boost clock", m.boost_clock_hz)];
    numbers.extend(optional.iter().filter_map(|(what, v)| Some((what.to_string(), (*v)?))));
    if let Some(i) = &m.issue {
        numbers.push(("instructions per cycle".into(), i.inst_per_cycle_per_scheduler));
    }
    if let Some(t) = &m.transaction_bytes {
        numbers.extend([("transaction size".to_string(), t.sector_bytes), ("shared transaction size".to_string(), t.shared_bytes)]);
    }
    if let Some((what, v)) = numbers.iter().find(|(_, v)| !v.is_finite()) {
        return Err(format!("the machine's {what} is {v}, not a number a link can carry"));
    }
    if strings.iter().any(|s| s.len() > MAX_STRING_BYTES) {
        return Err(format!("a name or source of the machine is longer than {MAX_STRING_BYTES} bytes"));
    }
    Ok(())
}

fn write_lists(w: &mut Writer, compute: &[Ceiling], memory: &[MemoryLevel]) {
    w.varint(compute.len() as u64);
    for c in compute {
        w.str(&c.name);
        w.u8(ceiling_code(c.kind, c.data_type));
        w.decimal(c.flops_per_s);
    }
    w.varint(memory.len() as u64);
    for l in memory {
        w.str(&l.name);
        w.u8(level_code(l.level));
        w.decimal(l.bytes_per_s);
    }
}

/// Writes `m` (already [`check`]ed).
pub fn write(w: &mut Writer, m: &Machine) {
    w.str(&m.id);
    w.str(&m.name);
    w.str(&m.source);
    write_lists(w, &m.compute, &m.memory);
    let flags = [
        (m.flops_per_tensor_inst.is_some(), HAS_TENSOR_FACTOR),
        (m.clock_hz.is_some(), HAS_CLOCK),
        (m.base_clock_hz.is_some(), HAS_BASE_CLOCK),
        (m.boost_clock_hz.is_some(), HAS_BOOST_CLOCK),
        (m.issue.is_some(), HAS_ISSUE),
        (m.transaction_bytes.is_some(), HAS_TRANSACTION_BYTES),
        (m.theoretical.is_some(), HAS_THEORETICAL),
        (m.empirical.is_some(), HAS_EMPIRICAL),
        (m.vendor.is_some(), HAS_VENDOR),
        (m.arch.is_some(), HAS_ARCH),
        (m.generation.is_some(), HAS_GENERATION),
        (m.sm_count.is_some(), HAS_SM_COUNT),
        (m.memory_bytes.is_some(), HAS_MEMORY_BYTES),
        (m.l2_bytes.is_some(), HAS_L2_BYTES),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |acc, (_, bit)| acc | bit);
    w.varint(flags);
    for v in [m.flops_per_tensor_inst, m.clock_hz, m.base_clock_hz, m.boost_clock_hz].into_iter().flatten() {
        w.decimal(v);
    }
    if let Some(i) = &m.issue {
        w.varint(u64::from(i.compute_units));
        w.varint(u64::from(i.schedulers_per_unit));
        w.decimal(i.inst_per_cycle_per_scheduler);
        w.varint(u64::from(i.threads_per_warp));
    }
    if let Some(t) = &m.transaction_bytes {
        w.decimal(t.sector_bytes);
        w.decimal(t.shared_bytes);
    }
    for set in [&m.theoretical, &m.empirical].into_iter().flatten() {
        w.str(&set.source);
        write_lists(w, &set.compute, &set.memory);
    }
    w.varint(m.links.len() as u64);
    for l in &m.links {
        w.str(&l.name);
        w.decimal(l.bytes_per_s);
    }
    if let Some(v) = m.vendor {
        w.u8(vendor_code(v));
    }
    for s in [&m.arch, &m.generation].into_iter().flatten() {
        w.str(s);
    }
    if let Some(n) = m.sm_count {
        w.varint(u64::from(n));
    }
    for v in [m.memory_bytes, m.l2_bytes].into_iter().flatten() {
        w.decimal(v);
    }
}

fn read_lists(r: &mut Reader) -> Result<(Vec<Ceiling>, Vec<MemoryLevel>), DecodeError> {
    // Each entry is at least 4 bytes (empty name, code, two-varint number): bound the
    // allocation by what is left.
    let n = r.count(MAX_MACHINE_LIST as u64, "number of compute ceilings")?;
    let mut compute = Vec::with_capacity(n.min(r.remaining() / 4));
    for _ in 0..n {
        let name = r.str("ceiling name")?;
        let code = r.u8("compute kind")?;
        let (kind, data_type) = ceiling_of(code).ok_or_else(|| newer(&format!("compute kind {code}")))?;
        compute.push(Ceiling { name, kind, data_type, flops_per_s: r.decimal("compute ceiling")? });
    }
    let n = r.count(MAX_MACHINE_LIST as u64, "number of memory levels")?;
    let mut memory = Vec::with_capacity(n.min(r.remaining() / 4));
    for _ in 0..n {
        let name = r.str("memory level name")?;
        let code = r.u8("memory level")?;
        let level = level_of(code).ok_or_else(|| newer(&format!("memory level {code}")))?;
        memory.push(MemoryLevel { name, level, bytes_per_s: r.decimal("memory bandwidth")? });
    }
    Ok((compute, memory))
}

/// A code this build does not know: most likely a link from a newer version.
fn newer(what: &str) -> DecodeError {
    DecodeError(format!("it uses {what}, unknown to this version (was it made by a newer one?)"))
}

fn u32_of(r: &mut Reader, what: &str) -> Result<u32, DecodeError> {
    Ok(r.count(u64::from(u32::MAX), what)? as u32)
}

pub fn read(r: &mut Reader) -> Result<Machine, DecodeError> {
    let id = r.str("machine id")?;
    let name = r.str("machine name")?;
    let source = r.str("machine source")?;
    let (compute, memory) = read_lists(r)?;
    let flags = r.varint("machine flags")?;
    if flags & !KNOWN_FLAGS != 0 {
        return Err(damaged("the machine has fields v1 does not define"));
    }
    let mut opt = |bit: u64, what: &str| -> Result<Option<f64>, DecodeError> { if flags & bit != 0 { r.decimal(what).map(Some) } else { Ok(None) } };
    let flops_per_tensor_inst = opt(HAS_TENSOR_FACTOR, "FLOPs per tensor instruction")?;
    let clock_hz = opt(HAS_CLOCK, "clock")?;
    let base_clock_hz = opt(HAS_BASE_CLOCK, "base clock")?;
    let boost_clock_hz = opt(HAS_BOOST_CLOCK, "boost clock")?;
    let issue = if flags & HAS_ISSUE != 0 {
        Some(Issue {
            compute_units: u32_of(r, "compute units")?,
            schedulers_per_unit: u32_of(r, "schedulers per unit")?,
            inst_per_cycle_per_scheduler: r.decimal("instructions per cycle")?,
            threads_per_warp: u32_of(r, "threads per warp")?,
        })
    } else {
        None
    };
    let transaction_bytes = if flags & HAS_TRANSACTION_BYTES != 0 {
        Some(TransactionSizes { sector_bytes: r.decimal("transaction size")?, shared_bytes: r.decimal("shared transaction size")? })
    } else {
        None
    };
    let mut set = |bit: u64| -> Result<Option<PeakSet>, DecodeError> {
        if flags & bit == 0 {
            return Ok(None);
        }
        let source = r.str("peak set source")?;
        let (compute, memory) = read_lists(r)?;
        Ok(Some(PeakSet { source, compute, memory }))
    };
    let theoretical = set(HAS_THEORETICAL)?;
    let empirical = set(HAS_EMPIRICAL)?;
    let n = r.count(MAX_MACHINE_LIST as u64, "number of host links")?;
    let mut links = Vec::with_capacity(n.min(r.remaining() / 3));
    for _ in 0..n {
        let name = r.str("host link name")?;
        links.push(Link { name, bytes_per_s: r.decimal("host link bandwidth")? });
    }
    let vendor = if flags & HAS_VENDOR != 0 {
        let code = r.u8("vendor")?;
        Some([Vendor::Nvidia, Vendor::Amd, Vendor::Intel].into_iter().find(|&v| vendor_code(v) == code).ok_or_else(|| newer(&format!("vendor {code}")))?)
    } else {
        None
    };
    let mut text = |bit: u64, what: &str| -> Result<Option<String>, DecodeError> { if flags & bit != 0 { r.str(what).map(Some) } else { Ok(None) } };
    let arch = text(HAS_ARCH, "architecture")?;
    let generation = text(HAS_GENERATION, "generation")?;
    let sm_count = if flags & HAS_SM_COUNT != 0 { Some(u32_of(r, "SM count")?) } else { None };
    let mut size = |bit: u64, what: &str| -> Result<Option<f64>, DecodeError> { if flags & bit != 0 { r.decimal(what).map(Some) } else { Ok(None) } };
    let memory_bytes = size(HAS_MEMORY_BYTES, "memory size")?;
    let l2_bytes = size(HAS_L2_BYTES, "L2 size")?;
    Ok(Machine {
        id,
        name,
        source,
        vendor,
        arch,
        generation,
        sm_count,
        memory_bytes,
        l2_bytes,
        compute,
        memory,
        flops_per_tensor_inst,
        clock_hz,
        base_clock_hz,
        boost_clock_hz,
        issue,
        transaction_bytes,
        theoretical,
        empirical,
        links,
        // Not in v1 links: it follows from the view's clock choice (`View::machine`).
        per_kernel_clock: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalogue;

    #[test]
    fn every_catalogue_machine_round_trips_exactly() {
        for m in catalogue::all() {
            assert_eq!(check(&m), Ok(()));
            let mut w = Writer::default();
            write(&mut w, &m);
            let mut r = Reader::new(&w.bytes);
            assert_eq!(read(&mut r).as_ref(), Ok(&m), "{}", m.id);
            assert_eq!(r.remaining(), 0);
        }
    }

    #[test]
    fn non_finite_values_are_refused_when_writing() {
        let mut m = catalogue::a100();
        m.memory[0].bytes_per_s = f64::NAN;
        assert!(check(&m).unwrap_err().contains("not a number"));
    }
}
