//! The app's JSON export (`report_json::analyze`, written without serde) is byte for byte the
//! CLI's `analyze --json` (serde_json's `to_string_pretty` of the same report), on every
//! sample file, with and without a machine.

mod samples;

use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue;
use roofline_engine::report::{self, AnalyzeReport};
use roofline_engine::{load_dataset, report_json, Dataset, KernelProfile};

fn same(r: &AnalyzeReport, what: &str) {
    let serde = serde_json::to_string_pretty(r).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(report_json::analyze(r), serde, "{what}");
}

#[test]
fn every_sample_with_and_without_a_machine() {
    let machines = [None, Some(catalogue::v100()), Some(catalogue::mi250x()), Some(catalogue::xeon_gold_6132())];
    let mut files = vec![samples::nersc_run()];
    files.extend(samples::all_paths().iter().map(|p| vec![samples::read(p)]));
    // Which parts of the report the comparison went through, so that none is left untested.
    let (mut compared, mut guidance, mut instruction, mut ldst, mut transfers) = (0, false, false, false, false);
    for f in &files {
        let Ok(ds) = load_dataset(f) else { continue };
        for m in &machines {
            let r = report::analyze(&ds, m.as_ref());
            same(&r, &f[0].name);
            compared += 1;
            guidance |= r.kernels.iter().any(|k| k.guidance.is_some());
            instruction |= r.kernels.iter().any(|k| !k.instruction.points.is_empty());
            ldst |= r.kernels.iter().any(|k| k.instruction.global_ldst.is_some() || k.instruction.shared_ldst.is_some());
            transfers |= !r.transfers.is_empty();
        }
    }
    // No sample counts LD/ST instructions: one kernel that does (one with a time, one without).
    let counters = |time: Option<f64>| {
        let mut pairs = vec![(Counter::GlobalLdStInst, 4e6), (Counter::GlobalTxn, 1e6), (Counter::SharedLdStInst, 2e6), (Counter::SharedTxn, 3e6)];
        pairs.extend(time.map(|t| (Counter::TimeS, t)));
        Counters::from_pairs(&pairs)
    };
    let ds = Dataset {
        kernels: vec![KernelProfile { name: "ldst".into(), launches: 2, counters: counters(Some(1e-3)) }, KernelProfile { name: "untimed".into(), launches: 1, counters: counters(None) }],
        ..Dataset::default()
    };
    for m in &machines {
        let r = report::analyze(&ds, m.as_ref());
        same(&r, "LD/ST kernels");
        ldst |= r.kernels.iter().any(|k| k.instruction.global_ldst.is_some() && k.instruction.shared_ldst.is_some());
    }
    assert!(compared > 40, "only {compared} reports compared");
    assert!(guidance && instruction && ldst && transfers, "covered: guidance {guidance}, instruction points {instruction}, LD/ST {ldst}, transfers {transfers}");
}
