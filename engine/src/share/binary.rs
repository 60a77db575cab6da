//! The v1 binary payload of a [`View`] (before deflate). docs/SHARING.md is the byte-level
//! specification; this file and that document must say the same thing.
//!
//! Layout, in order: flags; settings; optional custom machine; then the kernels as columns —
//! all names, all launch counts, the counter codes used, one presence mask per kernel, and the
//! values as 24-bit floats, column by column, split into byte planes. Grouping like with like
//! is what lets deflate work: names share prefixes with names, and the high bytes (sign and
//! exponent) of one counter are close to each other. The two low bytes of each value are
//! close to random: they go in a separate tail that is not deflated at all, because inside
//! the deflate stream they would flatten the Huffman codes the names need (−12% link length).

use super::codes::{counter_code, counter_of};
use super::choice_wire;
use super::machine_wire;
use super::view::{SharedKernel, View};
use super::wire::{damaged, f24_bits, f24_value, Reader, Writer, MAX_STRING_BYTES};
use super::DecodeError;
use crate::chart::Zoom;
use crate::domain::counters::Counters;

/// Most kernels a payload may declare (a link holds far fewer: see `MAX_LINK_CHARS`); checked
/// before any allocation.
pub const MAX_KERNELS: usize = 100_000;
/// Most entries in `hidden_levels`.
pub const MAX_HIDDEN_LEVELS: usize = 16;
/// Most distinct counter codes in one payload: presence masks are 64-bit.
pub const MAX_COLUMNS: usize = 64;

const HAS_MACHINE: u64 = 1 << 0;
const HAS_COMPUTE: u64 = 1 << 1;
const HAS_ZOOM: u64 = 1 << 2;
const HAS_TOP_N: u64 = 1 << 3;
const HAS_SELECTED: u64 = 1 << 4;
const HAS_THEME: u64 = 1 << 5;
/// How the machine was chosen ([`View::choice`]), written after the word size.
const HAS_CHOICE: u64 = 1 << 6;
/// Every compute roof drawn ([`View::all_roofs`]): the flag alone, no field.
const ALL_ROOFS: u64 = 1 << 7;
/// What the dot colours mean ([`View::color_by`]), a string after the choice.
const HAS_COLOR_BY: u64 = 1 << 8;
const KNOWN_FLAGS: u64 = (1 << 9) - 1;

/// Why `view` cannot be written, if it cannot (limits of the format; see docs/SHARING.md).
pub fn check(view: &View) -> Result<(), String> {
    if view.kernels.len() > MAX_KERNELS {
        return Err(format!("{} kernels is more than a view can hold ({MAX_KERNELS})", view.kernels.len()));
    }
    if view.hidden_levels.len() > MAX_HIDDEN_LEVELS {
        return Err(format!("more than {MAX_HIDDEN_LEVELS} hidden levels"));
    }
    if view.word_bytes == 0 {
        return Err("the word size is 0 bytes".into());
    }
    let settings = [&view.machine_id, &view.mode, &view.filter].into_iter().chain(&view.hidden_levels).chain(&view.compute).chain(&view.theme).chain(&view.color_by);
    let names = view.kernels.iter().map(|k| &k.name);
    if let Some(s) = settings.chain(names).find(|s| s.len() > MAX_STRING_BYTES) {
        return Err(format!("\"{}…\" is longer than {MAX_STRING_BYTES} bytes", s.chars().take(40).collect::<String>()));
    }
    if let Some(m) = &view.custom_machine {
        machine_wire::check(m)?;
    }
    Ok(())
}

fn zoom_values(z: &Zoom) -> [f64; 4] {
    [z.x[0], z.x[1], z.y[0], z.y[1]]
}

/// Writes a [`check`]ed view, with `names[i]` in place of `view.kernels[i].name` (the names
/// may have been shortened to fit). Non-finite counter values are not written (not measured),
/// nor a zoom with a non-finite bound, nor a selection past the kernels.
/// A written view: `body` is deflated, `tail` (the low bytes of the values) is not.
pub struct Payload {
    pub body: Vec<u8>,
    pub tail: Vec<u8>,
}

pub fn write(view: &View, names: &[&str]) -> Payload {
    let mut w = Writer::default();
    let zoom = view.zoom.filter(|z| zoom_values(z).iter().all(|v| v.is_finite()));
    let selected = view.selected.filter(|&i| i < view.kernels.len());
    let flags = [
        (view.custom_machine.is_some(), HAS_MACHINE),
        (view.compute.is_some(), HAS_COMPUTE),
        (zoom.is_some(), HAS_ZOOM),
        (view.top_n.is_some(), HAS_TOP_N),
        (selected.is_some(), HAS_SELECTED),
        (view.theme.is_some(), HAS_THEME),
        (view.choice.is_some(), HAS_CHOICE),
        (view.all_roofs, ALL_ROOFS),
        (view.color_by.is_some(), HAS_COLOR_BY),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |acc, (_, bit)| acc | bit);
    w.varint(flags);
    w.str(&view.machine_id);
    if let Some(m) = &view.custom_machine {
        machine_wire::write(&mut w, m);
    }
    w.str(&view.mode);
    if let Some(c) = &view.compute {
        w.str(c);
    }
    w.varint(view.hidden_levels.len() as u64);
    for l in &view.hidden_levels {
        w.str(l);
    }
    if let Some(z) = &zoom {
        for v in zoom_values(z) {
            w.decimal(v);
        }
    }
    w.str(&view.filter);
    if let Some(n) = view.top_n {
        w.varint(u64::from(n));
    }
    if let Some(i) = selected {
        w.varint(i as u64);
    }
    if let Some(t) = &view.theme {
        w.str(t);
    }
    w.u8(view.word_bytes);
    if let Some(c) = &view.choice {
        choice_wire::write(&mut w, c);
    }
    if let Some(c) = &view.color_by {
        w.str(c);
    }
    let tail = write_kernels(&mut w, &view.kernels, names);
    Payload { body: w.bytes, tail }
}

/// The values of `k` a view carries: its finite counters (one not measured is left out).
pub(super) fn carried(k: &SharedKernel) -> impl Iterator<Item = (crate::domain::counters::Counter, f64)> + '_ {
    k.counters.iter().filter(|(_, v)| v.is_finite())
}

/// The length of the tail [`write`] returns for `view`, without writing it: two bytes a value.
pub fn tail_len(view: &View) -> usize {
    2 * view.kernels.iter().map(|k| carried(k).count()).sum::<usize>()
}

/// Writes the kernel columns and the values' high bytes; returns the low bytes (the tail).
pub(super) fn write_kernels(w: &mut Writer, kernels: &[SharedKernel], names: &[&str]) -> Vec<u8> {
    w.varint(kernels.len() as u64);
    for name in names {
        w.str(name);
    }
    for k in kernels {
        w.varint(k.launches);
    }
    // Columns: the codes any kernel has, ascending.
    let measured = |k: &SharedKernel| carried(k).map(|(c, v)| (counter_code(c), v)).collect::<Vec<_>>();
    let per_kernel: Vec<Vec<(u8, f64)>> = kernels.iter().map(measured).collect();
    // Which codes occur, ascending: a presence table rather than a sort (no sort code for u8).
    let mut present = [false; 256];
    for &(code, _) in per_kernel.iter().flatten() {
        present[usize::from(code)] = true;
    }
    let codes: Vec<u8> = (0..=u8::MAX).filter(|&c| present[usize::from(c)]).collect();
    w.varint(codes.len() as u64);
    for &code in &codes {
        w.u8(code);
    }
    for values in &per_kernel {
        let mask = values.iter().filter_map(|(code, _)| codes.iter().position(|c| c == code)).fold(0u64, |m, col| m | (1 << col));
        w.varint(mask);
    }
    let mut column_major: Vec<u32> = Vec::new();
    for &code in &codes {
        column_major.extend(per_kernel.iter().filter_map(|vs| vs.iter().find(|(c, _)| *c == code)).map(|&(_, v)| f24_bits(v)));
    }
    w.bytes.extend(column_major.iter().map(|&r| (r >> 16) as u8));
    let mut tail = Vec::with_capacity(2 * column_major.len());
    for shift in [8, 0] {
        tail.extend(column_major.iter().map(|&r| (r >> shift) as u8));
    }
    tail
}

/// Reads a payload written by [`write`]. Every length and count is checked against the
/// format's limits and the bytes actually left before anything is allocated from it; the body
/// must end exactly where the kernels do, and the tail hold exactly two bytes per value.
pub fn read(body: &[u8], tail: &[u8]) -> Result<View, DecodeError> {
    let mut r = Reader::new(body);
    let mut values = tail;
    let view = read_from(&mut r, &mut values)?;
    if r.remaining() != 0 {
        return Err(damaged(&format!("{} unexpected bytes follow the kernels", r.remaining())));
    }
    if !values.is_empty() {
        return Err(damaged(&format!("it has {} bytes of values for {} values", tail.len(), (tail.len() - values.len()) / 2)));
    }
    Ok(view)
}

/// Reads a view's fields from `r` and its values' low bytes from the front of `tail`, leaving
/// what follows in both: v2 links (`super::v2`) carry more after a v1 view.
pub(super) fn read_from(r: &mut Reader, tail: &mut &[u8]) -> Result<View, DecodeError> {
    let flags = r.varint("flags")?;
    if flags & !KNOWN_FLAGS != 0 {
        return Err(damaged("it sets fields v1 does not define"));
    }
    let machine_id = r.str("machine id")?;
    let custom_machine = if flags & HAS_MACHINE != 0 { Some(machine_wire::read(r)?) } else { None };
    let mode = r.str("chart mode")?;
    let compute = if flags & HAS_COMPUTE != 0 { Some(r.str("compute roof")?) } else { None };
    let n = r.count(MAX_HIDDEN_LEVELS as u64, "number of hidden levels")?;
    let hidden_levels = (0..n).map(|_| r.str("hidden level")).collect::<Result<Vec<_>, _>>()?;
    let zoom = if flags & HAS_ZOOM != 0 {
        let mut v = [0.0; 4];
        for slot in &mut v {
            *slot = r.decimal("zoom range")?;
        }
        Some(Zoom { x: [v[0], v[1]], y: [v[2], v[3]] })
    } else {
        None
    };
    let filter = r.str("filter text")?;
    let top_n = if flags & HAS_TOP_N != 0 { Some(r.count(u64::from(u32::MAX), "top-N count")? as u32) } else { None };
    let selected = if flags & HAS_SELECTED != 0 { Some(r.count(MAX_KERNELS as u64, "selected kernel")?) } else { None };
    let theme = if flags & HAS_THEME != 0 { Some(r.str("theme")?) } else { None };
    let word_bytes = r.u8("word size")?;
    if word_bytes == 0 {
        return Err(damaged("the word size is 0 bytes"));
    }
    let choice = if flags & HAS_CHOICE != 0 { Some(choice_wire::read(r)?) } else { None };
    let color_by = if flags & HAS_COLOR_BY != 0 { Some(r.str("dot colours")?) } else { None };
    let kernels = read_kernels(r, tail)?;
    if selected.is_some_and(|i| i >= kernels.len()) {
        return Err(damaged("the selected kernel is not among the kernels"));
    }
    let all_roofs = flags & ALL_ROOFS != 0;
    Ok(View { machine_id, custom_machine, mode, compute, hidden_levels, zoom, filter, top_n, selected, theme, word_bytes, kernels, choice, all_roofs, color_by, runs: None })
}

/// Reads a kernel block; its values' low bytes (two a value) are taken from the front of
/// `tail`, which is left holding what follows them.
pub(super) fn read_kernels(r: &mut Reader, tail: &mut &[u8]) -> Result<Vec<SharedKernel>, DecodeError> {
    let n = r.count(MAX_KERNELS as u64, "number of kernels")?;
    // A kernel takes at least 3 bytes (name length, launches, mask): a count the remaining
    // bytes cannot hold is refused before allocating for it.
    if n.saturating_mul(3) > r.remaining() {
        return Err(damaged(&format!("it declares {n} kernels but is too short to hold them")));
    }
    let mut kernels = Vec::with_capacity(n);
    for _ in 0..n {
        kernels.push(SharedKernel { name: r.str("kernel name")?, launches: 0, counters: Counters::default() });
    }
    for k in &mut kernels {
        k.launches = r.varint("launch count")?;
    }
    let columns = r.count(MAX_COLUMNS as u64, "number of counters")?;
    let codes = r.take(columns, "counter codes")?;
    if codes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(damaged("the counter codes are not in ascending order"));
    }
    let mut masks = Vec::with_capacity(n);
    let mut total = 0usize;
    for _ in 0..n {
        let mask = r.varint("counter mask")?;
        if columns < 64 && mask >> columns != 0 {
            return Err(damaged("a kernel has a counter that is not among the counters"));
        }
        total += mask.count_ones() as usize;
        masks.push(mask);
    }
    let hi = r.take(total, "counter values")?;
    if tail.len() < total.saturating_mul(2) {
        return Err(damaged(&format!("it has {} bytes of values for {total} values", tail.len())));
    }
    let (mine, rest) = tail.split_at(2 * total);
    *tail = rest;
    let (mid, lo) = mine.split_at(total);
    let mut i = 0;
    for (col, &code) in codes.iter().enumerate() {
        let counter = counter_of(code);
        for (k, &mask) in kernels.iter_mut().zip(&masks) {
            if mask & (1 << col) == 0 {
                continue;
            }
            let bits = (u32::from(hi[i]) << 16) | (u32::from(mid[i]) << 8) | u32::from(lo[i]);
            i += 1;
            let v = f24_value(bits).ok_or_else(|| damaged("a counter value is not a finite number"))?;
            // Unknown codes come from a newer build: read past them, keep what this one knows.
            if let Some(c) = counter {
                k.counters.set(c, v);
            }
        }
    }
    Ok(kernels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;
    use crate::model::catalogue;
    use proptest::prelude::*;

    fn sample() -> View {
        let mut counters = Counters::default();
        counters.set(Counter::TimeS, 0.5);
        counters.set(Counter::DramBytes, 8e9);
        let mut v = View {
            selected: Some(0),
            zoom: Some(Zoom { x: [0.1, 10.0], y: [1.0, 2.0] }),
            kernels: vec![SharedKernel { name: "k<1>(int)".into(), launches: 2, counters }, SharedKernel::default()],
            color_by: Some("bound".into()),
            ..View::default()
        };
        v.set_machine(&catalogue::v100().at_clock(1e9));
        v
    }

    fn bytes_of(v: &View) -> (Vec<u8>, Vec<u8>) {
        let names: Vec<&str> = v.kernels.iter().map(|k| k.name.as_str()).collect();
        let p = write(v, &names);
        (p.body, p.tail)
    }

    /// A body of only `kernels` after the settings of a default view.
    fn body_declaring(kernels: u64) -> Vec<u8> {
        let (mut body, _) = bytes_of(&View::default());
        body.truncate(body.len() - 2); // drop the empty kernel block: count 0, columns 0
        let mut w = Writer::default();
        w.varint(kernels);
        body.extend(w.bytes);
        body
    }

    #[test]
    fn the_tail_length_is_known_without_writing() {
        // The sample: two measured values and a kernel with none; a NaN is not carried.
        let mut v = sample();
        assert_eq!(tail_len(&v), 4);
        assert_eq!(bytes_of(&v).1.len(), tail_len(&v));
        v.kernels[1].counters.set(crate::domain::counters::Counter::Fp32Flops, f64::NAN);
        v.kernels[1].counters.set(crate::domain::counters::Counter::L2Bytes, 3e6);
        assert_eq!(tail_len(&v), 6);
        assert_eq!(bytes_of(&v).1.len(), tail_len(&v));
    }

    #[test]
    fn the_machine_choice_round_trips() {
        use crate::choice::{ClockBasis, Chosen};
        use crate::domain::{Device, Vendor};
        let device = Device { name: Some("NVIDIA A100-PCIE-40GB".into()), vendor: Some(Vendor::Nvidia), arch: Some("sm_80".into()), sm_count: Some(108), memory_bytes: Some(4e10), ..Device::default() };
        let mut v = sample();
        v.choice = Some(super::super::view::ViewChoice::of(Chosen::Option, ClockBasis::Measured, Some(&device), Some(765e6)));
        let (body, tail) = bytes_of(&v);
        let back = read(&body, &tail).expect("reads");
        let c = back.choice.expect("a choice");
        assert_eq!((c.chosen, c.clock, c.measured_sm_clock_hz), (Some(Chosen::Option), Some(ClockBasis::Measured), Some(765e6)));
        // The identity travels, not the memory size (the machine carries what the roofs need).
        assert_eq!(c.device, Some(Device { memory_bytes: None, ..device }));
        // Without a choice, the bytes are those of a link from before choices existed.
        v.choice = None;
        assert_eq!(bytes_of(&v).0[0] & (1 << 6), 0);
    }

    #[test]
    fn absurd_counts_are_refused_before_allocating() {
        let e = read(&body_declaring(MAX_KERNELS as u64 + 1), &[]).unwrap_err();
        assert!(e.0.contains("too many for the number of kernels"), "{}", e.0);
        let e = read(&body_declaring(90_000), &[]).unwrap_err();
        assert!(e.0.contains("too short to hold them"), "{}", e.0);
        let e = read(&body_declaring(u64::MAX), &[]).unwrap_err();
        assert!(e.0.contains("too many"), "{}", e.0);
    }

    #[test]
    fn every_truncation_and_extension_is_refused() {
        let v = sample();
        let (body, tail) = bytes_of(&v);
        assert_eq!(read(&body, &tail).as_ref().map(|r| r.kernels.len()), Ok(2));
        for cut in 0..body.len() {
            assert!(read(&body[..cut], &tail).is_err(), "body cut at {cut}");
        }
        for cut in 0..tail.len() {
            assert!(read(&body, &tail[..cut]).is_err(), "tail cut at {cut}");
        }
        assert!(read(&[body.as_slice(), &[0]].concat(), &tail).unwrap_err().0.contains("unexpected bytes"));
        assert!(read(&body, &[tail.as_slice(), &[0, 0]].concat()).is_err());
    }

    #[test]
    fn out_of_range_fields_are_refused() {
        let v = View { color_by: None, ..sample() };
        let (mut body, tail) = bytes_of(&v);
        // Bit 9 is the first flag no version defines (bits 6, 7 and 8, the machine choice, all
        // roofs and the dot colours, came later). The flags are a varint below 128 here: one
        // byte, which becomes two with bit 9 set (low seven bits | 0x80, then 512 >> 7 = 4).
        assert!(body[0] < 0x80);
        body.insert(0, 0x80 | body[0]);
        body[1] = 0x04;
        assert!(read(&body, &tail).unwrap_err().0.contains("v1 does not define"));
        let mut bad = View { selected: Some(0), ..View::default() };
        bad.kernels.push(SharedKernel::default());
        let (body, tail) = bytes_of(&bad);
        // Same bytes with the kernel removed: the selection now points past the kernels.
        let (empty_body, _) = bytes_of(&View { selected: None, ..View::default() });
        let mut tampered = body[..body.len() - 5].to_vec();
        tampered.extend_from_slice(&empty_body[empty_body.len() - 2..]);
        assert!(read(&tampered, &tail).unwrap_err().0.contains("selected kernel"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn reading_arbitrary_bytes_never_panics(body in prop::collection::vec(any::<u8>(), 0..200), tail in prop::collection::vec(any::<u8>(), 0..20)) {
            let _ = read(&body, &tail);
        }

        #[test]
        fn reading_altered_payloads_never_panics(at in any::<prop::sample::Index>(), byte in any::<u8>(), in_tail in any::<bool>()) {
            let (mut body, mut tail) = bytes_of(&sample());
            let target = if in_tail { &mut tail } else { &mut body };
            let i = at.index(target.len());
            target[i] = byte;
            let _ = read(&body, &tail);
        }
    }
}
