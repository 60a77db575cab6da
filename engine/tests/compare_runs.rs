//! Comparing two runs of one program (issue 44) on real reports: the cs599k SiLU course
//! project profiled with PyTorch's own SiLU (`ncu-rep/cs599k__profile.ncu-rep`, 9 launches of
//! `vectorized_elementwise_kernel<…silu_kernel…>` after one `distribution_elementwise_grid_
//! stride_kernel` that fills the input with `normal_and_transform`) and after the change to a
//! Triton kernel (`ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep`: 2 launches of
//! `silu_kernel_non_strided`, the input filled by `uniform_and_transform`), both on a GH200;
//! and the PyTorch version's console output of another run (`ncu/cs599k__silu_triton_silu-
//! pytorch-ncu-report.txt`), whose names Nsight Compute's console spells differently.
//!
//! Times by hand, from the reports' `gpu__time_duration.sum` (import_ncu_rep.rs reads the same
//! values; the console's `Duration` lines by `grep Duration`):
//! - PyTorch report: distribution 777 472 ns; SiLU 9 launches, Σ 5 269 952 ns; run 6 047 424 ns.
//! - Triton report: distribution 142 560 ns; SiLU 153 184 + 152 000 = 305 184 ns; run 447 744 ns.
//! - PyTorch console: distribution 777.95 µs; SiLU 582.37 + 582.05 + 582.40 + 580.64 + 581.79 +
//!   581.82 + 581.28 + 581.63 + 581.47 = 5 235.45 µs; run 6 013.40 µs.

#[macro_use]
mod samples;

use roofline_engine::choice::ClockChoice;
use roofline_engine::compare::{compare, compare_runs, pair, MatchedBy, PairError, Run, Side, UserPairs};
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::Level;
use roofline_engine::report::analyze;
use roofline_engine::{load_dataset, KernelProfile};
use samples::{close, sample};

const PYTORCH: &str = "ncu-rep/cs599k__profile.ncu-rep";
const TRITON: &str = "ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep";
const CONSOLE: &str = "ncu/cs599k__silu_triton_silu-pytorch-ncu-report.txt";

fn run(path: &str) -> Run {
    let ds = load_dataset(&[sample(path)]).unwrap_or_else(|e| panic!("{path}: {e}"));
    Run::new(ds, None, ClockChoice::Measured).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn user(pairs: &[(&str, &str)], unpair: &[&str]) -> UserPairs {
    UserPairs { pairs: pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(), unpair: unpair.iter().map(|s| s.to_string()).collect() }
}

/// The renamed kernel paired by hand (its short name on the left, a unique start of the name on
/// the right), the input kernel paired by the template-argument rule; each run judged against
/// its own machine.
#[test]
fn pytorch_to_triton_with_a_user_pair() {
    let (before, after) = (run(PYTORCH), run(TRITON));
    // Each run chose its own machine: the catalogue GH200 for the report without peaks, the
    // profiler's measured peaks for the full-set report.
    assert_eq!(before.machine().map(|m| m.id.as_str()), Some("gh200"));
    assert_eq!(after.machine().map(|m| m.id.as_str()), Some("gh200-ncu"));
    let c = compare_runs(&before, &after, &user(&[("vectorized_elementwise_kernel", "silu_kernel_non")], &[])).expect("pairs");
    assert!(c.added.is_empty() && c.removed.is_empty());
    // 6 047 424 ns ÷ 447 744 ns = 13.506432247.
    assert_close!(c.before_time_s, 6_047_424e-9);
    assert_close!(c.after_time_s, 447_744e-9);
    assert_close!(c.run_speedup.unwrap(), 13.506432247);
    // Largest saving first: SiLU, then the distribution kernel.
    let silu = &c.pairs[0];
    assert!(silu.before.starts_with("void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::silu_kernel"));
    assert_eq!((silu.after.as_str(), silu.matched_by), ("silu_kernel_non_strided", MatchedBy::User));
    // 5 269 952 ÷ 305 184 = 17.268113663; saved 4 964 768 ns = 0.820972368 of 6 047 424 ns.
    assert_close!(silu.speedup.unwrap(), 17.268113663);
    assert_close!(silu.saved_s.unwrap(), 4_964_768e-9);
    assert!((silu.share_of_run.unwrap() - 0.820972368).abs() < 1e-9);
    // The PyTorch report has no FLOP or byte counter: no % of roof before. After: DRAM-bound,
    // 1 027 294 720 bytes (import_ncu_rep.rs) at the report's own DRAM peak, 4.021239955e12
    // B/s, take 255.467 µs of its 305.184 µs: 0.837092221 of its roof.
    assert_eq!(silu.before_attained, None);
    let dram = after.machine().and_then(|m| m.memory.iter().find(|l| l.level == Level::Dram)).map(|l| l.bytes_per_s).expect("a DRAM roof");
    assert!(close(dram, 4.021239955e12), "{dram}");
    assert_close!(silu.after_attained.unwrap(), 1_027_294_720.0 / dram / 305_184e-9);
    assert!((silu.after_attained.unwrap() - 0.837092221).abs() < 1e-9);
    assert_eq!(silu.after_bound.as_deref(), Some("DRAM bandwidth"));

    let dist = &c.pairs[1];
    assert_eq!(dist.matched_by, MatchedBy::Demangled, "normal_and_transform → uniform_and_transform: template arguments only");
    assert!(dist.before.contains("normal_and_transform") && dist.after.contains("uniform_and_transform"));
    // 777 472 ÷ 142 560 = 5.453647587; saved 634 912 ns = 0.104988835 of the before run.
    assert_close!(dist.speedup.unwrap(), 5.453647587);
    assert!((dist.share_of_run.unwrap() - 0.104988835).abs() < 1e-9);
    // The fraction of roof is the guidance's, exactly as `analyze` reports it for that run.
    let analyzed = analyze(&after.dataset, after.machine());
    let k = analyzed.kernels.iter().find(|k| k.name == dist.after).expect("in analyze");
    assert_eq!(dist.after_attained, k.guidance.as_ref().map(|g| g.attained_fraction));
    assert_eq!(dist.after_flops_per_s, k.flops_per_s);
    // Amdahl: 6 047 424 − 447 744 = 5 599 680 ns = 4 964 768 + 634 912 (shares 0.821 + 0.105).
    assert_close!(c.paired_saved_s, 5_599_680e-9);
    assert_eq!((c.removed_time_s, c.added_time_s), (0.0, 0.0));
}

/// Without the user's pair the renamed kernel is not guessed: it is removed and added, with
/// its share of its own run.
#[test]
fn pytorch_to_triton_unpaired_lists() {
    let (before, after) = (run(PYTORCH), run(TRITON));
    let c = compare_runs(&before, &after, &UserPairs::default()).expect("pairs");
    assert_eq!(c.pairs.len(), 1);
    assert_eq!(c.pairs[0].matched_by, MatchedBy::Demangled);
    assert_eq!(c.removed.len(), 1);
    assert!(c.removed[0].name.contains("vectorized_elementwise_kernel"));
    // 5 269 952 ÷ 6 047 424 = 0.871437491 of the before run; 305 184 ÷ 447 744 = 0.681603774 of after.
    assert!((c.removed[0].share_of_run.unwrap() - 0.871437491).abs() < 1e-9);
    assert_eq!(c.added.len(), 1);
    assert_eq!(c.added[0].name, "silu_kernel_non_strided");
    assert!((c.added[0].share_of_run.unwrap() - 0.681603774).abs() < 1e-9);
    // The run's speed-up does not depend on the pairing: still 13.506432247. And
    // 5 599 680 ns = 634 912 (pair) + 5 269 952 (removed) − 305 184 (added).
    assert_close!(c.run_speedup.unwrap(), 13.506432247);
    assert_close!(c.paired_saved_s + c.removed_time_s - c.added_time_s, 5_599_680e-9);
}

/// A user's pair overrides the automatic one; `--unpair` keeps a kernel out.
#[test]
fn user_pair_overrides_and_unpair() {
    let (before, after) = (run(PYTORCH), run(TRITON));
    // The distribution kernel of before paired by hand with the Triton SiLU: the automatic
    // demangled pair is not made, so the PyTorch SiLU is removed and the new distribution added.
    let c = compare_runs(&before, &after, &user(&[("at::native::distribution_elementwise_grid_stride_kernel<…>", "silu_kernel_non_strided")], &[])).expect("pairs");
    assert_eq!(c.pairs.len(), 1);
    assert_eq!((c.pairs[0].matched_by, c.pairs[0].after.as_str()), (MatchedBy::User, "silu_kernel_non_strided"));
    // 777 472 ÷ 305 184 = 2.547551641.
    assert!((c.pairs[0].speedup.unwrap() - 2.547551641).abs() < 1e-9);
    assert!(c.removed[0].name.contains("vectorized_elementwise_kernel") && c.added[0].name.contains("uniform_and_transform"));

    let c = compare_runs(&before, &after, &user(&[], &["distribution_elementwise_grid_stride_kernel"])).expect("pairs");
    assert!(c.pairs.is_empty());
    assert_eq!((c.removed.len(), c.added.len()), (2, 2));

    // A name that names nothing, or several, is an error that says which run.
    let e = compare_runs(&before, &after, &user(&[("nope", "silu_kernel_non_strided")], &[])).unwrap_err();
    assert!(matches!(&e, PairError::NotFound { .. }) && e.to_string().contains("before run"), "{e}");
    let e = compare_runs(&before, &after, &user(&[("void at::native::", "silu_kernel_non_strided")], &[])).unwrap_err();
    assert!(matches!(e, PairError::Ambiguous { ref candidates, .. } if candidates.len() == 2), "{e}");
}

/// The same program in another run, read from the console output whose names drop
/// `at::native::<` (`void unnamed>::distribution_…`): paired by the bare function name, each
/// unique in both runs. The console names no GPU, only sm_90 with 132 SMs: its roofs are an
/// H100's, the report's a GH200's.
#[test]
fn report_to_console_pairs_by_short_name() {
    let (before, after) = (run(PYTORCH), run(CONSOLE));
    assert_eq!(after.machine().map(|m| m.id.as_str()), Some("h100"));
    let c = compare_runs(&before, &after, &UserPairs::default()).expect("pairs");
    assert!(c.added.is_empty() && c.removed.is_empty());
    let by: Vec<_> = c.pairs.iter().map(|p| p.matched_by).collect();
    assert_eq!(by, vec![MatchedBy::Short, MatchedBy::Short]);
    // SiLU: 5 269 952 ns ÷ 5 235.45 µs = 1.006590073 (34.502 µs saved, first); distribution:
    // 777 472 ns ÷ 777.95 µs = 0.999385565 (0.478 µs lost); run 6 047 424 ÷ 6 013 400 = 1.005658030.
    assert!(c.pairs[0].before.contains("silu_kernel") && c.pairs[0].after.contains("silu_kernel"));
    assert!((c.pairs[0].speedup.unwrap() - 1.006590073).abs() < 1e-9);
    assert!((c.pairs[1].speedup.unwrap() - 0.999385565).abs() < 1e-9);
    assert!(c.pairs[1].saved_s.unwrap() < 0.0);
    assert!((c.run_speedup.unwrap() - 1.005658030).abs() < 1e-9);
}

fn k(name: &str, time_s: f64, flops: f64) -> KernelProfile {
    let mut c = Counters::default();
    c.set(Counter::TimeS, time_s);
    c.set(Counter::Fp64Flops, flops);
    KernelProfile { name: name.into(), launches: 1, counters: c }
}

/// Hand-made runs for each rule at once: a template-argument change (`demangled`), a changed
/// parameter type (`short`), two instances of one template on each side (ambiguous: left
/// unpaired), and FLOP/s against each run's own machine.
#[test]
fn template_changes_and_ambiguity() {
    let before = [
        k("void stencil<double, 8>(double*, int)", 4.0, 8e9),
        k("void axpy<float>(float*, float*)", 1.0, 1e9),
        k("void reduce<1>(double*)", 1.0, 1e9),
        k("void reduce<2>(double*)", 1.0, 1e9),
    ];
    let after = [
        k("void stencil<double, 16>(double*, int)", 2.0, 8e9),
        k("void axpy<double>(double*, double*)", 2.0, 1e9),
        k("void reduce<3>(double*)", 0.5, 1e9),
        k("void reduce<4>(double*)", 0.5, 1e9),
    ];
    let names = |ks: &[KernelProfile]| ks.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    let p = pair(&names(&before), &names(&after), &UserPairs::default()).expect("pairs");
    let got: Vec<_> = p.pairs.iter().map(|p| (p.before, p.after, p.matched_by)).collect();
    assert_eq!(got, vec![(0, 0, MatchedBy::Demangled), (1, 1, MatchedBy::Short)]);
    assert_eq!((p.removed.clone(), p.added.clone()), (vec![2, 3], vec![2, 3]));
    let c = compare(Side { kernels: &before, machine: None }, Side { kernels: &after, machine: None }, &p);
    // stencil: 4 s → 2 s, speed-up 2, 8e9 FLOPs: 2 GFLOP/s → 4 GFLOP/s; saved 2 s of 7 s.
    assert_eq!(c.pairs[0].speedup, Some(2.0));
    assert_eq!((c.pairs[0].before_flops_per_s, c.pairs[0].after_flops_per_s), (Some(2e9), Some(4e9)));
    assert_eq!(c.pairs[0].share_of_run, Some(2.0 / 7.0));
    // axpy got slower: 1 s → 2 s, speed-up 0.5, saved −1 s; last.
    assert_eq!((c.pairs[1].speedup, c.pairs[1].saved_s), (Some(0.5), Some(-1.0)));
    // Run: 7 s → 5 s = 1.4; 2 = 2 − 1 (pairs) + 2 (removed reduce<1>, <2>) − 1 (added <3>, <4>).
    assert_eq!(c.run_speedup, Some(1.4));
    assert_eq!((c.paired_saved_s, c.removed_time_s, c.added_time_s), (1.0, 2.0, 1.0));
    // The user pairs the ambiguous ones by their full names.
    let u = user(&[("void reduce<1>(double*)", "void reduce<3>(double*)"), ("void reduce<2>(double*)", "void reduce<4>(double*)")], &[]);
    let p = pair(&names(&before), &names(&after), &u).expect("pairs");
    assert_eq!(p.pairs.len(), 4);
    assert!(p.removed.is_empty() && p.added.is_empty());
}

/// The BerkeleyGW GPP kernel of app/src/examples.rs (NERSC slides: v1.collapse3 3.71 TFLOPs in
/// 1.63 s, v9.block 2.00 TFLOPs in 0.57 s; DRAM bytes as the example gives them), v1 judged on
/// a V100 and v9, say, on an A100: each against its own roofs.
#[test]
fn each_run_against_its_own_machine() {
    use roofline_engine::model::catalogue;
    let (v100, a100) = (catalogue::v100(), catalogue::a100());
    let mut v1 = k("GPP", 1.63, 3.71e12);
    v1.counters.set(Counter::DramBytes, 1e12);
    let mut v9 = k("GPP", 0.57, 2.00e12);
    v9.counters.set(Counter::DramBytes, 75.15e9);
    let p = pair(&["GPP"], &["GPP"], &UserPairs::default()).expect("pairs");
    let c = compare(Side { kernels: &[v1], machine: Some(&v100) }, Side { kernels: &[v9], machine: Some(&a100) }, &p);
    let g = &c.pairs[0];
    assert_eq!(g.matched_by, MatchedBy::Name);
    // 1.63 ÷ 0.57 = 2.859649123.
    assert!((g.speedup.unwrap() - 2.859649123).abs() < 1e-9);
    // V100 (catalogue, 1530 MHz): FP64 7.8336 TFLOP/s → 3.71e12 ÷ 7.8336e12 = 0.473601 s; HBM
    // 828 GB/s → 1e12 ÷ 828e9 = 1.207729 s, the binding bound: 1.207729 ÷ 1.63 = 0.740938.
    assert!((g.before_attained.unwrap() - 1e12 / 828e9 / 1.63).abs() < 1e-12);
    assert!((g.before_attained.unwrap() - 0.740938).abs() < 1e-6);
    assert_eq!(g.before_bound.as_deref(), Some("HBM bandwidth"));
    // A100: HBM2e 2039 GB/s → 75.15e9 ÷ 2.039e12 = 0.036856 s; FP64 9.7 TFLOP/s → 2.00e12 ÷
    // 9.7e12 = 0.206186 s, binding: 0.206186 ÷ 0.57 = 0.361730.
    assert!((g.after_attained.unwrap() - 2.00e12 / 9.7e12 / 0.57).abs() < 1e-12);
    assert!((g.after_attained.unwrap() - 0.361730).abs() < 1e-6);
    // FLOP/s: 3.71e12 ÷ 1.63 = 2.276074 TFLOP/s → 2.00e12 ÷ 0.57 = 3.508772 TFLOP/s.
    assert!((g.before_flops_per_s.unwrap() - 2.276074e12).abs() < 1e6);
    assert!((g.after_flops_per_s.unwrap() - 3.508772e12).abs() < 1e6);
}

/// The app pairs runs of 10,000 kernels: every step linear in them. 5,000 kernels keep their
/// names (in reverse order), 5,000 are one template each whose argument changed (`g{i}<1>` →
/// `g{i}<2>`): 5,000 by name, 5,000 by the demangled rule, nothing left.
#[test]
fn ten_thousand_kernels() {
    let before: Vec<String> = (0..5000).map(|i| format!("void f{i}(double*)")).chain((0..5000).map(|i| format!("void g{i}<1>(double*)"))).collect();
    let after: Vec<String> = (0..5000).rev().map(|i| format!("void f{i}(double*)")).chain((0..5000).map(|i| format!("void g{i}<2>(double*)"))).collect();
    let started = std::time::Instant::now();
    let p = pair(&before, &after, &UserPairs::default()).expect("pairs");
    let by = |m: MatchedBy| p.pairs.iter().filter(|q| q.matched_by == m).count();
    assert_eq!((by(MatchedBy::Name), by(MatchedBy::Demangled)), (5000, 5000));
    assert!(p.added.is_empty() && p.removed.is_empty());
    // f0 (before's 0) is after's 4999.
    assert_eq!((p.pairs[0].before, p.pairs[0].after), (0, 4999));
    eprintln!("paired 10,000 kernels in {:?}", started.elapsed());
}
