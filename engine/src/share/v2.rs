//! The v2 payload: a v1 view ([`super::binary`], unchanged) followed by the runs it compares
//! ([`ViewRuns`], issue 44). v1 is frozen (docs/SHARING.md, *Versioning policy*), so runs,
//! a new field, are a new version; a view without runs is still written as v1.
//!
//! ```text
//! body2 = body (v1, without its end check)
//!         name:str                              the current run's name
//!         r:varint (1 ≤ r ≤ MAX_RUNS), r × run  earlier runs, oldest first
//!         p:varint, p × (before:varint, after:varint)   the user's pairs
//!         u:varint, u × before:varint           unpaired kernels of the last earlier run
//!         u:varint, u × after:varint            unpaired kernels of the current run
//! run   = rflags:varint (bit 0 custom machine, bit 1 choice; bits 2+ zero)
//!         name:str machine_id:str [machine] [choice] kernels (v1's kernel block)
//! tail2 = tail (v1) ‖ each earlier run's tail, in order
//! ```

use super::binary::{self, read_from, read_kernels, write_kernels, MAX_KERNELS};
use super::choice_wire;
use super::machine_wire;
use super::view::{SharedRun, View, ViewRuns};
use super::wire::{damaged, Reader, Writer, MAX_STRING_BYTES};
use super::DecodeError;

/// Most earlier runs a link holds: a trajectory of a few optimisation steps, not a history.
pub const MAX_RUNS: usize = 16;

const RUN_MACHINE: u64 = 1 << 0;
const RUN_CHOICE: u64 = 1 << 1;
const KNOWN_RUN_FLAGS: u64 = (1 << 2) - 1;

/// Why the runs of `runs` cannot be written, if they cannot.
pub fn check(runs: &ViewRuns) -> Result<(), String> {
    if runs.earlier.is_empty() || runs.earlier.len() > MAX_RUNS {
        return Err(format!("{} earlier runs: a link holds 1 to {MAX_RUNS}", runs.earlier.len()));
    }
    let total: usize = runs.earlier.iter().map(|r| r.kernels.len()).sum();
    if total > MAX_KERNELS {
        return Err(format!("{total} kernels in the earlier runs is more than a view can hold ({MAX_KERNELS})"));
    }
    // Each run's strings and machine within v1's limits (`binary::check`), without copying
    // its kernels into a view of its own.
    for r in &runs.earlier {
        let names = r.kernels.iter().map(|k| &k.name);
        if let Some(s) = [&r.name, &r.machine_id].into_iter().chain(names).find(|s| s.len() > MAX_STRING_BYTES) {
            return Err(format!("\"{}…\" is longer than {MAX_STRING_BYTES} bytes", s.chars().take(40).collect::<String>()));
        }
        if let Some(m) = &r.custom_machine {
            machine_wire::check(m)?;
        }
    }
    Ok(())
}

/// Writes the runs after a v1 payload (`body`, `tail`); `names` in place of the earlier runs'
/// kernel names, run by run. Pairs naming a kernel that is not there are left out.
pub fn write(runs: &ViewRuns, current_kernels: usize, body: &mut Vec<u8>, tail: &mut Vec<u8>) {
    let mut w = Writer::default();
    w.str(&runs.name);
    w.varint(runs.earlier.len() as u64);
    for r in &runs.earlier {
        let flags = if r.custom_machine.is_some() { RUN_MACHINE } else { 0 } | if r.choice.is_some() { RUN_CHOICE } else { 0 };
        w.varint(flags);
        w.str(&r.name);
        w.str(&r.machine_id);
        if let Some(m) = &r.custom_machine {
            machine_wire::write(&mut w, m);
        }
        if let Some(c) = &r.choice {
            choice_wire::write(&mut w, c);
        }
        let names: Vec<&str> = r.kernels.iter().map(|k| k.name.as_str()).collect();
        tail.extend(write_kernels(&mut w, &r.kernels, &names));
    }
    let before = runs.earlier.last().map_or(0, |r| r.kernels.len());
    let pairs: Vec<_> = runs.pairs.iter().filter(|&&(b, a)| b < before && a < current_kernels).collect();
    w.varint(pairs.len() as u64);
    for &&(b, a) in &pairs {
        w.varint(b as u64);
        w.varint(a as u64);
    }
    for (list, len) in [(&runs.unpaired_before, before), (&runs.unpaired_after, current_kernels)] {
        let kept: Vec<usize> = list.iter().copied().filter(|&i| i < len).collect();
        w.varint(kept.len() as u64);
        for i in kept {
            w.varint(i as u64);
        }
    }
    body.extend(w.bytes);
}

/// The length of the runs' tail: two bytes a carried value.
pub fn tail_len(runs: &ViewRuns) -> usize {
    2 * runs.earlier.iter().flat_map(|r| &r.kernels).map(|k| binary::carried(k).count()).sum::<usize>()
}

/// Reads a v2 payload: the v1 view, then its runs. Every index is checked against the run it
/// points into, every count against the bytes left; the body and tail must end exactly.
pub fn read(body: &[u8], tail: &[u8]) -> Result<View, DecodeError> {
    let mut r = Reader::new(body);
    let mut values = tail;
    let mut view = read_from(&mut r, &mut values)?;
    let name = r.str("run name")?;
    let n = r.count(MAX_RUNS as u64, "number of runs")?;
    if n == 0 {
        return Err(damaged("a v2 link holds at least one earlier run"));
    }
    let mut earlier = Vec::with_capacity(n);
    let mut total = 0usize;
    for _ in 0..n {
        let flags = r.varint("run flags")?;
        if flags & !KNOWN_RUN_FLAGS != 0 {
            return Err(damaged("a run sets fields v2 does not define"));
        }
        let name = r.str("run name")?;
        let machine_id = r.str("run machine id")?;
        let custom_machine = if flags & RUN_MACHINE != 0 { Some(machine_wire::read(&mut r)?) } else { None };
        let choice = if flags & RUN_CHOICE != 0 { Some(choice_wire::read(&mut r)?) } else { None };
        let kernels = read_kernels(&mut r, &mut values)?;
        total += kernels.len();
        if total > MAX_KERNELS {
            return Err(damaged("its runs hold more kernels than a view can"));
        }
        earlier.push(SharedRun { name, machine_id, custom_machine, choice, kernels });
    }
    let before = earlier.last().map_or(0, |r| r.kernels.len());
    let after = view.kernels.len();
    // A pair takes at least two bytes: a count the bytes left cannot hold is refused first.
    let p = r.count(MAX_KERNELS as u64, "number of pairs")?;
    if p.saturating_mul(2) > r.remaining() {
        return Err(damaged(&format!("it declares {p} pairs but is too short to hold them")));
    }
    let mut pairs = Vec::with_capacity(p);
    for _ in 0..p {
        let b = index(&mut r, before, "a pair's kernel of the earlier run")?;
        let a = index(&mut r, after, "a pair's kernel of the current run")?;
        pairs.push((b, a));
    }
    let mut lists = [Vec::new(), Vec::new()];
    for (list, (len, what)) in lists.iter_mut().zip([(before, "an unpaired kernel of the earlier run"), (after, "an unpaired kernel of the current run")]) {
        let u = r.count(MAX_KERNELS as u64, "number of unpaired kernels")?;
        if u > r.remaining() {
            return Err(damaged(&format!("it declares {u} unpaired kernels but is too short to hold them")));
        }
        for _ in 0..u {
            list.push(index(&mut r, len, what)?);
        }
    }
    if r.remaining() != 0 {
        return Err(damaged(&format!("{} unexpected bytes follow the runs", r.remaining())));
    }
    if !values.is_empty() {
        return Err(damaged(&format!("{} bytes of values follow the runs' values", values.len())));
    }
    let [unpaired_before, unpaired_after] = lists;
    view.runs = Some(ViewRuns { name, earlier, pairs, unpaired_before, unpaired_after });
    Ok(view)
}

/// An index below `len`, else the link is damaged.
fn index(r: &mut Reader, len: usize, what: &str) -> Result<usize, DecodeError> {
    let i = r.varint(what)?;
    usize::try_from(i).ok().filter(|&i| i < len).ok_or_else(|| damaged(&format!("{what} is not among its kernels")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::{Counter, Counters};
    use crate::model::catalogue;
    use super::super::view::SharedKernel;
    use proptest::prelude::*;

    fn sample() -> View {
        let mut c = Counters::default();
        c.set(Counter::TimeS, 0.5);
        c.set(Counter::DramBytes, 8192.0); // powers of two: exact after quantisation
        let ks = vec![SharedKernel { name: "a".into(), launches: 1, counters: c.clone() }, SharedKernel { name: "b".into(), launches: 2, counters: c }];
        let mut run = SharedRun::new("before", &catalogue::v100().at_clock(1e9), &[]);
        run.kernels = ks.clone();
        View { kernels: ks, runs: Some(ViewRuns { name: "after".into(), earlier: vec![run], pairs: vec![(1, 0)], unpaired_before: vec![0], unpaired_after: vec![1] }), ..View::default() }
    }

    fn bytes_of(v: &View) -> (Vec<u8>, Vec<u8>) {
        let names: Vec<&str> = v.kernels.iter().map(|k| k.name.as_str()).collect();
        let binary::Payload { mut body, mut tail } = binary::write(v, &names);
        write(v.runs.as_ref().unwrap(), v.kernels.len(), &mut body, &mut tail);
        (body, tail)
    }

    #[test]
    fn every_truncation_and_extension_is_refused() {
        let v = sample();
        let (body, tail) = bytes_of(&v);
        assert_eq!(read(&body, &tail), Ok(v));
        for cut in 0..body.len() {
            assert!(read(&body[..cut], &tail).is_err(), "body cut at {cut}");
        }
        for cut in 0..tail.len() {
            assert!(read(&body, &tail[..cut]).is_err(), "tail cut at {cut}");
        }
        assert!(read(&[body.as_slice(), &[0]].concat(), &tail).unwrap_err().0.contains("follow the runs"));
        assert!(read(&body, &[tail.as_slice(), &[0, 0]].concat()).unwrap_err().0.contains("follow the runs' values"));
    }

    #[test]
    fn an_index_past_its_run_is_refused() {
        let v = sample();
        let (mut body, tail) = bytes_of(&v);
        // The last bytes: pairs 1, (1, 0); unpaired 1, [0]; unpaired 1, [1]. Point the last
        // unpaired index (current run, 2 kernels) past the end.
        let n = body.len();
        assert_eq!(&body[n - 7..], &[1, 1, 0, 1, 0, 1, 1]);
        body[n - 1] = 2;
        assert!(read(&body, &tail).unwrap_err().0.contains("an unpaired kernel of the current run is not among its kernels"));
        body[n - 1] = 1;
        body[n - 6] = 2;
        assert!(read(&body, &tail).unwrap_err().0.contains("a pair's kernel of the earlier run is not among its kernels"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

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
