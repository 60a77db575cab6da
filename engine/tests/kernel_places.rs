//! Every kernel of the NERSC run has a place (issue 16): a dot in the plot, a dot in the
//! bandwidth strip, or a count in the note; and the note's time share is the one computed
//! here straight from the five files, without the engine.

mod samples;

use roofline_engine::chart::places::{places, Place};
use roofline_engine::chart::Mode;
use roofline_engine::load_dataset;
use roofline_engine::model::catalogue;
use samples::{nersc_run, NERSC_METRICS};
use std::collections::HashMap;

/// The values of one one-metric Nsight Compute file: (launch id, kernel name, value) per row.
fn rows(text: &str) -> Vec<(String, String, f64)> {
    text.lines()
        .filter(|l| l.starts_with('"') && !l.starts_with("\"ID\""))
        .map(|l| {
            let f: Vec<&str> = l.trim_end_matches(['\r', '"']).trim_start_matches('"').split("\",\"").collect();
            let value: f64 = f[f.len() - 1].replace(',', "").parse().unwrap_or_else(|e| panic!("{l}: {e}"));
            // Names as the engine keys kernels (a few are mangled in the files).
            (f[0].to_string(), roofline_engine::domain::names::clean(f[4]), value)
        })
        .collect()
}

/// Per kernel name: time (Σ cycles over its launches ÷ the mean of its launches' cycles per
/// second: the files are separate runs of the application, whose launch ids do not pair
/// up, so this is the NERSC recipe at the kernel level) and whether any launch did
/// floating-point work (FFMA or tensor instructions).
fn by_hand() -> HashMap<String, (f64, bool)> {
    let files = nersc_run();
    let values: HashMap<&str, Vec<(String, String, f64)>> =
        NERSC_METRICS.iter().zip(&files).map(|(m, f)| (*m, rows(std::str::from_utf8(&f.bytes).expect("utf-8")))).collect();
    // Per kernel: (sum, count) of a metric's values.
    let per_kernel = |metric: &str| -> HashMap<String, (f64, f64)> {
        let mut out: HashMap<String, (f64, f64)> = HashMap::new();
        for (_, k, v) in &values[metric] {
            let e = out.entry(k.clone()).or_default();
            e.0 += v;
            e.1 += 1.0;
        }
        out
    };
    let (cycles, rate) = (per_kernel("sm__cycles_elapsed.avg"), per_kernel("sm__cycles_elapsed.avg.per_second"));
    let (ffma, tensor) = (per_kernel("sm__sass_thread_inst_executed_op_ffma_pred_on.sum"), per_kernel("sm__inst_executed_pipe_tensor.sum"));
    cycles
        .iter()
        .map(|(k, (c, _))| {
            let (r, n) = rate[k];
            let flops = ffma.get(k).map_or(0.0, |v| v.0) > 0.0 || tensor.get(k).map_or(0.0, |v| v.0) > 0.0;
            (k.clone(), (c / (r / n), flops))
        })
        .collect()
}

#[test]
fn every_nersc_kernel_is_on_the_classic_chart_or_in_its_strip_and_the_share_is_right() {
    let hand = by_hand();
    assert_eq!(hand.len(), 49);
    let total: f64 = hand.values().map(|v| v.0).sum();
    let no_flops: Vec<&String> = hand.iter().filter(|(_, v)| !v.1).map(|(k, _)| k).collect();
    let share = hand.values().filter(|v| !v.1).map(|v| v.0).sum::<f64>() / total;
    assert_eq!(no_flops.len(), 27);
    assert!((share - 0.344).abs() < 1e-3, "{share}");

    let ds = load_dataset(&nersc_run()).unwrap_or_else(|e| panic!("{e}"));
    let m = catalogue::v100();
    let p = places(&ds.kernels, &m, Mode::Classic);
    assert_eq!(p.places.len(), 49);
    for (k, place) in ds.kernels.iter().zip(&p.places) {
        let expected = if hand[&k.name].1 { Place::Plot } else { Place::Strip };
        assert_eq!(*place, expected, "{}", k.name);
    }
    assert_eq!((p.strip.count, p.table.count), (27, 0));
    // The engine pairs launches where it can (Σ cycles/clock per launch): within 0.1 point.
    let engine_share = p.strip.share.expect("times");
    assert!((engine_share - share).abs() < 1e-3, "{engine_share} vs {share}");
    assert_eq!(p.note().as_deref(), Some("27 kernels, 34% of the run time, have no FLOPs: shown in the bandwidth strip under the chart."));

    // The hierarchical chart has only DRAM bytes to place them by: the same places.
    assert_eq!(places(&ds.kernels, &m, Mode::Hierarchical).places, p.places);
    // No instruction counters in this run: every kernel is in the table only, all the time.
    let i = places(&ds.kernels, &m, Mode::Instruction);
    assert_eq!(i.table.count, 49);
    assert_eq!(i.note().as_deref(), Some("49 kernels, 100% of the run time, lack the instruction and transaction counters: listed in the table only."));
}

#[test]
fn the_classic_scene_draws_every_nersc_kernel_once() {
    let ds = load_dataset(&nersc_run()).unwrap_or_else(|e| panic!("{e}"));
    let m = catalogue::v100();
    let s = roofline_engine::chart::build(&roofline_engine::chart::ChartInput::new(&ds.kernels, &m, 1000.0, 640.0));
    let mut kernels: Vec<usize> = s.hits.iter().map(|h| h.kernel).collect();
    kernels.sort_unstable();
    kernels.dedup();
    assert_eq!(kernels.len(), 49, "a dot per kernel, in the plot or the strip");
    let strip = s.hits.iter().filter(|h| h.marker == roofline_engine::chart::Marker::Bandwidth).count();
    assert_eq!(strip, 27);
}
