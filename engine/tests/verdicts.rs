//! Verdicts never beyond the counters (issue 43): a kernel measured on one side of the
//! roofline names its largest measured bound and claims no headroom, saving or rank; its
//! JSON says `null`, its advice says what to collect.

use roofline_engine::choice::{choose, ClockChoice};
use roofline_engine::model::guidance::Side;
use roofline_engine::report::analyze_choice;
use roofline_engine::{load_dataset, SourceFile};

#[macro_use]
mod samples;

use samples::close;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

#[test]
fn a_kernel_with_bytes_and_no_flops_gets_no_headroom() {
    let file = samples::read(&format!("{FIXTURES}/ncu-issue43/bytes-only.details.csv"));
    let ds = load_dataset(&[SourceFile { name: file.name.clone(), bytes: file.bytes }]).unwrap_or_else(|e| panic!("{e}"));
    let choice = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("the H200 by its clock");
    assert_eq!(choice.machine.id, "h200");
    let r = analyze_choice(&ds, Some(&choice));
    let k = &r.kernels[0];
    let g = k.guidance.as_ref().expect("a DRAM bound");
    // 170,611,200 B ÷ 4.8e12 B/s = 35.544 µs at the HBM3e roof; measured 142.176 µs: 25%.
    assert_close!(g.roof_time_s, 35.544e-6);
    assert_close!(g.attained_fraction, 0.25);
    assert_eq!(g.binding.name, "HBM3e bandwidth");
    assert_eq!(g.unmeasured, vec![Side::Compute]);
    assert_eq!((g.headroom, g.potential_saving_s, g.potential_saving_fraction, g.rank), (None, None, None, None));
    assert_eq!(r.whole_run_speedup, None);
    assert_eq!(k.summary, "HBM3e bandwidth at 25% of its roof, but what binds it is not assessed: its FLOPs and instructions were not collected, so it may be compute-bound");
    assert!(k.advice.as_deref().is_some_and(|a| a.starts_with("Collect its compute counters first")), "{:?}", k.advice);
    // The JSON contract: nulls, not numbers.
    let json = serde_json::to_value(k).expect("json");
    assert_eq!(json["guidance"]["headroom"], serde_json::Value::Null);
    assert_eq!(json["guidance"]["potential_saving_s"], serde_json::Value::Null);
    assert_eq!(json["guidance"]["unmeasured"], serde_json::json!(["compute"]));
    // Its provenance names the FLOP metrics the NERSC recipe would have collected.
    let fp32 = k.provenance.iter().find(|q| q.name == "FP32 FLOPs").expect("FP32 FLOPs");
    assert_eq!((fp32.value, fp32.missing.len()), (None, 3));
}
