//! v2 links: a view that compares runs (issue 44) travels as v1's payload followed by the
//! earlier runs (each with its own machine) and the user's pairs (docs/SHARING.md, "v2").
//! Views without runs stay v1 (share_fixtures.rs checks the committed v1 links).
//!
//! `fixtures/links/v2-two-runs.txt` was made by the first v2 encoder from [`two_runs`]: never
//! regenerate or edit it; it must open forever to the values asserted here.

use proptest::prelude::*;
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue;
use roofline_engine::share::{self, SharedKernel, SharedRun, View, ViewRuns, MAX_RUNS};

fn kernel(name: &str, time_s: f64, flops: f64, bytes: f64) -> SharedKernel {
    let mut c = Counters::default();
    c.set(Counter::TimeS, time_s);
    c.set(Counter::Fp32Flops, flops);
    c.set(Counter::DramBytes, bytes);
    SharedKernel { name: name.into(), launches: 1, counters: c }
}

/// Before: two kernels on the V100 (catalogue); after: two on an A100 at 1 GHz (a custom
/// machine), `silu_kernel` paired by hand with `triton_silu` (renamed), `copy` gone, `fused`
/// new. Values are powers of two (exact in 24-bit floats).
fn two_runs() -> View {
    let before = vec![kernel("silu_kernel<float>(float*, int)", 0.5, 2.0, 1024.0), kernel("copy", 0.25, 0.0, 512.0)];
    let after = vec![kernel("fused", 0.125, 4.0, 256.0), kernel("triton_silu", 0.0625, 2.0, 1024.0)];
    let mut run = SharedRun::new("cs599k__profile.ncu-rep", &catalogue::v100(), &[]);
    run.kernels = before;
    View {
        selected: Some(1),
        runs: Some(ViewRuns { name: "triton.ncu-rep".into(), earlier: vec![run], pairs: vec![(0, 1)], unpaired_before: vec![1], unpaired_after: vec![0] }),
        kernels: after.clone(),
        ..View::new(&catalogue::a100().at_clock(1e9), &[])
    }
}

#[test]
fn a_view_with_runs_is_a_v2_link_and_round_trips_exactly() {
    let v = two_runs();
    let link = share::encode(&v).expect("fits");
    assert!(link.fragment.starts_with("v2."), "{}", &link.fragment[..3]);
    // Every value is a power of two: quantisation leaves it as it is, the view comes back equal.
    assert_eq!(share::decode(&link.fragment), Ok(v.clone()));
    // Without runs the same view is a v1 link, the bytes a v1 encoder made.
    let one = View { runs: None, ..v };
    let l1 = share::encode(&one).expect("fits").fragment;
    assert!(l1.starts_with("v1."));
    assert_eq!(share::decode(&l1), Ok(one));
}

#[test]
fn the_committed_v2_link_opens_to_its_values() {
    let path = format!("{}/tests/fixtures/links/v2-two-runs.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v = share::decode(&text).unwrap_or_else(|e| panic!("{e}"));
    let runs = v.runs.as_ref().expect("runs");
    assert_eq!(runs.name, "triton.ncu-rep");
    assert_eq!(runs.earlier.len(), 1);
    let before = &runs.earlier[0];
    assert_eq!((before.name.as_str(), before.machine_id.as_str(), before.custom_machine.is_none()), ("cs599k__profile.ncu-rep", "v100", true));
    assert_eq!(before.kernels[0].name, "silu_kernel<float>(float*, int)");
    assert_eq!(before.kernels[0].counters.get(Counter::TimeS), Some(0.5));
    assert_eq!(before.kernels[1].counters.get(Counter::DramBytes), Some(512.0));
    assert_eq!((runs.pairs.as_slice(), runs.unpaired_before.as_slice(), runs.unpaired_after.as_slice()), (&[(0, 1)][..], &[1][..], &[0][..]));
    // The current run: the A100 at 1 GHz, a custom machine; its kernels.
    assert_eq!(v.machine_id, "a100");
    assert_eq!(v.custom_machine.as_ref().and_then(|m| m.clock_hz), Some(1e9));
    assert_eq!(v.kernels[1].name, "triton_silu");
    assert_eq!(v.kernels[1].counters.get(Counter::TimeS), Some(0.0625));
    assert_eq!(v, two_runs());
    // Re-encoded, it is the same payload, now with its length ahead (docs/SHARING.md).
    let payload = text.trim().strip_prefix("v2.").expect("a v2 link");
    assert_eq!(share::encode(&v).map(|l| l.fragment), Ok(format!("v2.{}.{payload}", payload.len())));
}

#[test]
fn damaged_v2_links_say_why() {
    let s = share::encode(&two_runs()).unwrap().fragment;
    for cut in [4, s.len() / 2, s.len() - 1] {
        let e = share::decode(&s[..cut]).unwrap_err();
        assert!(e.0.contains("cut short"), "cut at {cut}: {}", e.0);
    }
    assert!(share::decode(&format!("{s}AA")).unwrap_err().0.contains("altered"));
    assert!(share::decode("v3.abc").unwrap_err().0.contains("it reads v1 and v2"));
}

#[test]
fn pairs_outside_the_runs_are_not_written_and_runs_are_bounded() {
    let mut v = two_runs();
    let runs = v.runs.as_mut().unwrap();
    runs.pairs.push((2, 0)); // the before run has two kernels: index 2 is not one of them
    runs.unpaired_after.push(9);
    let back = share::decode(&share::encode(&v).unwrap().fragment).unwrap();
    assert_eq!(back, two_runs());
    let mut v = two_runs();
    v.runs.as_mut().unwrap().earlier = vec![SharedRun::default(); MAX_RUNS + 1];
    assert!(matches!(share::encode(&v), Err(share::EncodeError::Invalid(_))));
    v.runs.as_mut().unwrap().earlier.clear();
    assert!(matches!(share::encode(&v), Err(share::EncodeError::Invalid(_))));
    // A run's name past the 64 KiB a string may hold: refused, as for the view's own names.
    let mut v = two_runs();
    v.runs.as_mut().unwrap().earlier[0].name = "x".repeat(share::MAX_STRING_BYTES + 1);
    assert!(matches!(share::encode(&v), Err(share::EncodeError::Invalid(why)) if why.contains("longer than 65536 bytes")));
}

/// The link's own bytes: its payload (after `v2.<length>.`, less the terminator of a payload
/// ending on `-` or `_`) base64url-decoded, for altering one byte.
fn raw(fragment: &str) -> Vec<u8> {
    use base64::Engine as _;
    let after = fragment.rsplit('.').next().unwrap_or_default();
    let payload = if after.len() % 4 == 1 { &after[..after.len() - 1] } else { after };
    base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()
}

fn relink(bytes: &[u8]) -> String {
    use base64::Engine as _;
    format!("v2.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Any set of runs and pairs round-trips (values quantised as in v1), and a view without
    /// runs is still a v1 link.
    #[test]
    fn runs_round_trip(times in prop::collection::vec((1e-6f64..10.0, 0.0f64..1e12), 1..6), runs in 1usize..4, pair in any::<prop::sample::Index>()) {
        let ks: Vec<SharedKernel> = times.iter().enumerate().map(|(i, &(t, f))| kernel(&format!("k{i}"), share::quantise(t), share::quantise(f), 8.0)).collect();
        let earlier: Vec<SharedRun> = (0..runs).map(|r| {
            let machine = if r % 2 == 0 { catalogue::v100() } else { catalogue::h100() };
            let mut run = SharedRun::new(&format!("run {r}"), &machine, &[]);
            run.kernels = ks.clone();
            run
        }).collect();
        let i = pair.index(ks.len());
        let v = View { runs: Some(ViewRuns { name: "now".into(), earlier, pairs: vec![(i, ks.len() - 1 - i)], unpaired_before: vec![], unpaired_after: vec![] }), ..View::new(&catalogue::a100(), &[]) };
        let v = View { kernels: ks, ..v };
        let link = share::encode(&v).unwrap().fragment;
        prop_assert!(link.starts_with("v2."));
        prop_assert_eq!(share::decode(&link), Ok(v));
    }

    /// An altered v2 link is refused with a reason (checksum, deflate, bounds), never a panic.
    #[test]
    fn altered_v2_links_never_panic(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = raw(&share::encode(&two_runs()).unwrap().fragment);
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let _ = share::decode(&relink(&bytes));
    }
}

#[test]
#[ignore = "prints the v2 fixture; run once, commit its output, never again"]
fn print_v2_fixture() {
    println!("{}", share::encode(&two_runs()).unwrap().fragment);
}

/// A `.roofline.json` carries the runs too (docs/SHARING.md), values exact, marker still v1.
#[cfg(feature = "json")]
#[test]
fn a_view_file_carries_the_runs() {
    let mut v = two_runs();
    v.runs.as_mut().unwrap().earlier[0].kernels[0].counters.set(Counter::TimeS, 0.1234567);
    let text = share::file::to_json(&v);
    assert!(text.starts_with("{\n  \"roofline_view\": \"v1\""), "{}", &text[..40]);
    assert!(text.contains("\"runs\""));
    assert_eq!(share::file::from_json(&text), Ok(v.clone()), "exact, not quantised");
    // Without runs the file has no "runs" member: as before runs existed.
    let one = View { runs: None, ..v };
    assert!(!share::file::to_json(&one).contains("\"runs\""));
}
