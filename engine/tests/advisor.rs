//! Intel Advisor: the HTML roofline report, the CPU survey's loop parts and machine, and the
//! roofs file's fallback when its all-core set has no compute roof (issue 41). Samples are read
//! in place from `shared/samples/`; expected values are worked out by hand from the files'
//! own numbers in the comments.

use roofline_engine::choice::{self, ClockChoice};
use roofline_engine::domain::counters::Counter;
use roofline_engine::domain::Vendor;
use roofline_engine::model::{catalogue, ComputeKind, Level};
use roofline_engine::{load_dataset, Dataset, SourceFile};

#[macro_use]
mod samples;

use samples::close;
use samples::{read, sample};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const DG1_REPORT: &str = "advisor-html/oneAPI-samples__roofline_gpu_mm_dpcpp_localmem_DG1_5120.html";
const SURVEY: &str = "advisor/Intel-advisor-guide__example_profile_data_example_survey.csv";

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

fn text(name: &str, body: &str) -> SourceFile {
    SourceFile { name: name.into(), bytes: body.as_bytes().to_vec() }
}


#[test]
fn the_dg1_report_reads_its_kernel() {
    let ds = load(&[sample(DG1_REPORT)]);
    assert_eq!(ds.files[0].format, "advisor-html");
    assert_eq!(ds.kernels.len(), 1, "one loop id, four memory-level entries: one kernel");
    let k = &ds.kernels[0];
    assert!(k.name.starts_with("mm_kernel(cl::sycl::queue&, std::vector<float"), "{}", k.name);
    // "selfElapsedTime":8.901744540999989 (the same in all four entries).
    assert_close!(k.time_s().expect("time"), 8.901744540999989);
    // FLOPs = 10^y GFLOP/s × t = 10^1.4793647516898994 × 1e9 × 8.901744541 = 30.1554 GFLOP/s ×
    // 8.9017 s = 2.68435456e11: exactly 2 × 5120³, the multiply-adds of a 5120 × 5120 matrix
    // product (the sample's size), so the log scale and the unit are right.
    let flops = k.counters.get(Counter::OtherFlops).expect("FLOPs of no stated precision");
    assert!((flops / (2.0 * 5120f64.powi(3)) - 1.0).abs() < 1e-12, "{flops}");
    // "selfMem" per "memoryLevelPref", GB: DRAM- 33.82297728, CARM- 1208.0644096 (→ L1),
    // L3- 67.2137216, SLM- 587.2287744.
    assert_close!(k.counters.get(Counter::DramBytes).expect("DRAM"), 33.82297728e9);
    assert_close!(k.counters.get(Counter::L1Bytes).expect("CARM"), 1208.0644096e9);
    assert_close!(k.counters.get(Counter::L3Bytes).expect("L3"), 67.2137216e9);
    assert_close!(k.counters.get(Counter::SharedBytes).expect("SLM"), 587.2287744e9);
    // Cross-check with the file's DRAM dot: intensity 10^0.8996280447157856 = 7.93648 FLOP/byte
    // = 2.68435456e11 FLOPs ÷ 33.82297728e9 bytes.
    assert!((flops / 33.82297728e9 / 10f64.powf(0.8996280447157856) - 1.0).abs() < 1e-9);
}

#[test]
fn the_dg1_report_roofs_are_its_measured_ones() {
    let ds = load(&[sample(DG1_REPORT)]);
    let m = ds.machine.expect("the report's roofs");
    assert!(m.source.contains("Intel Advisor roofline report"), "{}", m.source);
    // "val" is log10 of GFLOPS / GB/s: SP Vector FMA Peak 10^3.3886227138054538 = 2446.94 GFLOP/s;
    // SP Vector Add Peak 10^3.096845991875732 = 1249.82; SLM 10^3.064374703984134 = 1159.78 GB/s;
    // L3 10^2.745417511283023 = 556.44; DRAM 10^1.7974952392723136 = 62.733; GTI
    // 10^2.324282455297693 = 211.00.
    assert_close!(m.compute_ceiling(ComputeKind::Fp32).expect("SP").flops_per_s, 2446.936582282003e9);
    assert_eq!(m.compute.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["SP Vector FMA Peak", "SP Vector Add Peak"]);
    assert_close!(m.compute[1].flops_per_s, 1249.8157459499976e9);
    assert_close!(m.memory_level(Level::Shared).expect("SLM").bytes_per_s, 1159.7775665530016e9);
    assert_close!(m.memory_level(Level::L3).expect("L3").bytes_per_s, 556.4389357169989e9);
    let dram: Vec<(&str, f64)> = m.memory.iter().filter(|l| l.level == Level::Dram).map(|l| (l.name.as_str(), l.bytes_per_s)).collect();
    assert_eq!(dram.len(), 2, "GTI and DRAM are both memory-side roofs");
    assert!(dram.iter().any(|(n, v)| *n == "DRAM Bandwidth" && close(*v, 62.73288191799992e9)), "{dram:?}");
    assert!(dram.iter().any(|(n, v)| *n == "GTI Bandwidth" && close(*v, 211.0000000000002e9)), "{dram:?}");
    // Against DG1's data sheet (Iris Xe MAX: 96 EUs × 8 FP32 lanes × 2 (FMA) × 1.65 GHz =
    // 2534.4 GFLOP/s; LPDDR4X-4266 on 128 bits = 4266e6 × 16 B = 68.26 GB/s): the measured roofs
    // are 96.5 % and 91.9 % of them, as measured roofs should be; read as plain numbers
    // (3.39 GFLOP/s) or as natural logs (e^3.39 = 29.6) they would be nowhere near.
    let fp32 = m.compute_ceiling(ComputeKind::Fp32).expect("SP").flops_per_s / (96.0 * 16.0 * 1.65e9);
    let dram = m.memory_level(Level::Dram).expect("DRAM").bytes_per_s;
    assert!((0.95..1.0).contains(&fp32), "{fp32}");
    assert!(m.memory.iter().any(|l| l.name == "DRAM Bandwidth" && (0.9..1.0).contains(&(l.bytes_per_s / 68.256e9))), "{dram}");
}

#[test]
fn the_dg1_report_names_its_gpu() {
    let ds = load(&[sample(DG1_REPORT)]);
    let run = ds.main_device().expect("the report's GPU Info");
    // "Name":"DG1 [Iris Xe MAX Graphics]", "Vendor":"Intel Corporation", "Max Core Frequency":1650000000.
    assert_eq!(run.device.name.as_deref(), Some("DG1 [Iris Xe MAX Graphics]"));
    assert_eq!(run.device.vendor, Some(Vendor::Intel));
    assert_eq!(run.device.max_sm_clock_hz, Some(1.65e9));
    assert!(!choice::is_cpu_profile(&ds), "a GPU report");
    let c = choice::choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("the report's roofs");
    assert_eq!(c.sentence, "Profiled on DG1 [Iris Xe MAX Graphics]: roofs from the machine file, Intel Advisor roofs");
}

/// A CPU report as Advisor writes one (keys, nesting and scale of the DG1 sample; no
/// `GPU Info`; CPU memory levels; a loop nested in `children`; `selfTime` as the page's script
/// also accepts). Numbers chosen by hand: loop `a` 2 s, 10^1 = 10 GFLOP/s → 20 GFLOP, L2 traffic
/// 40 GB (x = log10(20/40) = −0.30103); its child `b` 0.5 s, 10^0 = 1 GFLOP/s → 0.5 GFLOP,
/// CARM 2 GB and L1 in one dot (`CARM-L1-`… here `L1-`), x = log10(0.5/2) = −0.60206.
const CPU_REPORT: &str = r#"<!DOCTYPE html><html><head><title>Roofline by Intel Advisor</title></head><body>
<script>!function(e){copy(e,window)}({"rooflineData":{"measureY":"GFLOPS","roofs":[
{"val":2.0,"isMem":0,"name":"DP Vector FMA Peak"},{"val":1.0,"isMem":0,"name":"DP Vector FMA Peak (single-threaded)"},
{"val":2.5,"isMem":1,"name":"L2 Bandwidth"},{"val":1.8,"isMem":1,"name":"DRAM Bandwidth"}],
"loops":[{"id":7,"name":"[loop in a at a.c:10]","memoryLevelPref":"L2-","selfTime":2,"selfMem":40,"x":-0.3010299956639812,"y":1,
"children":[{"id":8,"name":"[loop in b at a.c:12]","memoryLevelPref":"L1-","selfTime":0.5,"selfMem":2,"x":-0.6020599913279624,"y":0,"children":""}]}]},
"summaryInfo":{"platformInfo":{}}})</script></body></html>"#;

#[test]
fn a_cpu_report_reads_nested_loops_and_both_roof_sets() {
    let ds = load(&[text("cpu.html", CPU_REPORT)]);
    assert_eq!(ds.files[0].format, "advisor-html");
    let a = ds.kernels.iter().find(|k| k.name == "[loop in a at a.c:10]").expect("a");
    assert_close!(a.time_s().expect("time"), 2.0);
    assert_close!(a.counters.get(Counter::OtherFlops).expect("FLOPs"), 20e9); // 10 GFLOP/s × 2 s
    assert_close!(a.counters.get(Counter::L2Bytes).expect("L2"), 40e9);
    let b = ds.kernels.iter().find(|k| k.name == "[loop in b at a.c:12]").expect("the nested loop");
    assert_close!(b.counters.get(Counter::OtherFlops).expect("FLOPs"), 0.5e9); // 1 GFLOP/s × 0.5 s
    assert_close!(b.counters.get(Counter::L1Bytes).expect("L1"), 2e9);
    assert!(ds.main_device().is_none() && choice::is_cpu_profile(&ds), "no GPU Info: a CPU's loops");
    let m = ds.machine.clone().expect("roofs");
    // 10^2 = 100 GFLOP/s all cores; 10^1 = 10 single-threaded, the alternative.
    assert_close!(m.compute_ceiling(ComputeKind::Fp64).expect("DP").flops_per_s, 100e9);
    assert_close!(m.memory_level(Level::L2).expect("L2").bytes_per_s, 10f64.powf(2.5) * 1e9);
    assert_close!(ds.machine_alternatives[0].compute_ceiling(ComputeKind::Fp64).expect("DP 1t").flops_per_s, 10e9);
    let c = choice::choose(&ds, None, ClockChoice::Measured).expect("clock").expect("roofs");
    assert!(c.sentence.starts_with("The files do not say which CPU ran them: roofs from the machine file"), "{}", c.sentence);
}

#[test]
fn a_report_on_a_linear_chart_is_read_linearly() {
    // The same loop with plain coordinates: x = 20/40 = 0.5 FLOP/byte, y = 10 GFLOP/s; y ÷ x =
    // 20 GB/s = selfMem ÷ t, where y − x = 9.5 ≠ log10(20) = 1.301: the linear scale fits.
    let page = CPU_REPORT.replace("\"x\":-0.3010299956639812,\"y\":1,", "\"x\":0.5,\"y\":10,").replace("\"x\":-0.6020599913279624,\"y\":0,", "\"x\":0.25,\"y\":1,");
    let ds = load(&[text("linear.html", &page)]);
    let a = ds.kernels.iter().find(|k| k.name == "[loop in a at a.c:10]").expect("a");
    assert_close!(a.counters.get(Counter::OtherFlops).expect("FLOPs"), 20e9);
    assert_close!(ds.machine.expect("roofs").compute_ceiling(ComputeKind::Fp64).expect("DP").flops_per_s, 2e9);
}

#[test]
fn a_broken_report_names_the_file_and_line() {
    // The chart's JSON starts on line 3 and breaks on line 4 (a `,` where a key is expected).
    let page = "<!DOCTYPE html>\n<html><script>\nf({\"rooflineData\":{\"roofs\":[],\n\"loops\":[{\"name\":\"k\",}]}})\n</script></html>\n";
    let e = load_dataset(&[text("broken.html", page)]).expect_err("not JSON");
    assert_eq!((e.file.as_str(), e.line), ("broken.html", Some(4)), "{e}");
    assert!(e.message.contains("\"rooflineData\""), "{e}");
    // A wrong value type: the line of the value.
    let page = "<html>\n<script>f({\"rooflineData\":{\"measureY\":\"GFLOPS\",\n\"loops\":[{\"name\":\"k\",\"selfTime\":\"soon\"}]}})</script></html>";
    let e = load_dataset(&[text("typed.html", page)]).expect_err("a string time");
    assert_eq!(e.line, Some(3), "{e}");
    // An unknown performance unit is named.
    let page = "<html><script>f({\"rooflineData\":{\"measureY\":\"furlongs\",\"loops\":[]}})</script></html>";
    let e = load_dataset(&[text("unit.html", page)]).expect_err("unknown unit");
    assert!(e.message.contains("GFLOPS or GINTOPS") && e.message.contains("furlongs"), "{e}");
    // An HTML page without Advisor's chart data is no Advisor report.
    assert!(roofline_engine::import::detect("<!DOCTYPE html><html><body>rooflineData</body></html>").is_none());
}

#[test]
fn the_survey_counts_loop_parts_once() {
    let ds = load(&[sample(SURVEY)]);
    // Loop 541 "[loop in sources at DLMUSN.f90:5463]", Vectorized (Body; Remainder): 0.830 s,
    // 0.362 GFLOP; its parts 81 (body, 0.770 s, 0.362 GFLOP), 268 and 368 (remainders, 0.040 s
    // and 0.020 s): 0.770 + 0.040 + 0.020 = 0.830, the loop once.
    let k = ds.kernels.iter().find(|k| k.name == "[loop in sources at DLMUSN.f90:5463]").expect("loop 541");
    assert_eq!(k.launches, 1);
    assert_close!(k.time_s().expect("time"), 0.830);
    let flops = [Counter::Fp64Flops, Counter::Fp32Flops, Counter::OtherFlops].into_iter().find_map(|c| k.counters.get(c));
    assert_close!(flops.expect("FLOPs"), 0.362e9);
    assert!(ds.kernels.iter().all(|k| !k.name.starts_with("[child]")), "no part is a kernel of its own");
    // The run: Σ Self Elapsed Time over all rows = 150.691 s, of which the 45 `[child]` rows are
    // 4.270 s: 150.691 − 4.270 = 146.421 s (was 150.7 s with the parts counted on top).
    let run_s: f64 = ds.kernels.iter().filter_map(|k| k.time_s()).sum();
    assert!((run_s - 146.421).abs() < 5e-4, "{run_s}");
}

#[test]
fn a_part_without_its_loop_row_counts_under_the_loop() {
    // A filtered survey (header of the sample, columns cut to those read) listing only a loop's
    // parts: they add up to the loop (0.5 + 0.25 s).
    let csv = "\"ID\",\"Function Call Sites and Loops\",\"Self Time\",\"Self Elapsed Time\",\"Self GFLOP\"\n\
               \"3\",\"[child]-[loop in f at a.f90:9]\",\"0.500s\",\"0.500s\",\"1.5\"\n\
               \"4\",\"[child]-[loop in f at a.f90:9]\",\"0.250s\",\"0.250s\",\"0\"\n";
    let ds = load(&[text("parts.csv", csv)]);
    assert_eq!(ds.kernels.len(), 1);
    let k = &ds.kernels[0];
    assert_eq!(k.name, "[loop in f at a.f90:9]");
    assert_close!(k.time_s().expect("time"), 0.75);
}

#[test]
fn a_cpu_survey_never_gets_a_gpu_machine() {
    let ds = load(&[sample(SURVEY)]);
    assert!(choice::is_cpu_profile(&ds));
    assert_eq!(choice::choose(&ds, None, ClockChoice::Measured), Ok(None), "no roofs, no CPU named: nothing is assumed");
    assert_eq!(
        choice::no_machine_reason(&ds),
        "the files do not say which CPU ran them and describe no roofs: choose a CPU machine to draw roofs (Intel Advisor's `--report=roofs` CSV, loaded with them, gives the roofs it measured)"
    );
    // The app's first machine (V100) and the link's default give way to a CPU; a CPU shown stays.
    let drawn = choice::fallback_machine(&ds, catalogue::v100());
    assert_eq!(drawn.id, "xeon-gold-6132");
    assert!(catalogue::is_cpu(&drawn));
    assert_eq!(choice::fallback_machine(&ds, catalogue::epyc_7763()).id, "epyc-7763");
    let c = choice::choose(&ds, Some(drawn), ClockChoice::Measured).expect("clock").expect("given");
    assert!(c.sentence.starts_with("The files do not say which CPU ran them: roofs of the chosen Intel Xeon Gold 6132"), "{}", c.sentence);
    // With the roofs file the survey's machine is Advisor's, and the fallback is not needed.
    let ds = load(&[sample(SURVEY), read(&format!("{FIXTURES}/advisor-roofs-broadwell.csv"))]);
    let c = choice::choose(&ds, None, ClockChoice::Measured).expect("clock").expect("the roofs");
    assert_eq!(c.machine.id, "advisor-roofs");
    assert!(c.sentence.starts_with("The files do not say which CPU ran them: roofs from the machine file"), "{}", c.sentence);
    // A GPU profile keeps the app's machine.
    let gpu = load(&[read(&format!("{FIXTURES}/tidy-example.csv"))]);
    assert!(!choice::is_cpu_profile(&gpu));
    assert_eq!(choice::fallback_machine(&gpu, catalogue::v100()).id, "v100");
}

#[test]
fn roofs_without_all_core_compute_fall_back_to_the_single_threaded_set() {
    // advisor-roofs-1t-compute.csv: every memory roof for all cores and one thread, compute
    // roofs only single-threaded (and a `Scalar` one, not drawn).
    let ds = load(&[read(&format!("{FIXTURES}/advisor-roofs-1t-compute.csv"))]);
    let m = ds.machine.expect("machine");
    assert_eq!(m.id, "advisor-roofs-1t");
    assert_close!(m.compute_ceiling(ComputeKind::Fp64).expect("DP FMA 1t").flops_per_s, 49563336304.0);
    assert_close!(m.compute_ceiling(ComputeKind::Fp32).expect("SP FMA 1t").flops_per_s, 98956234406.0);
    assert_close!(m.memory_level(Level::L1).expect("L1 1t").bytes_per_s, 315579346298.0);
    let all = &ds.machine_alternatives;
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].id, "advisor-roofs");
    assert_close!(all[0].memory_level(Level::L1).expect("L1").bytes_per_s, 11360856466728.0);
    assert!(all[0].compute.is_empty());
    let note = ds.warnings.iter().find(|w| w.message.contains("no compute roof")).expect("the fallback is said");
    assert_eq!(note.file, "advisor-roofs-1t-compute.csv");
    // A file with both sets complete keeps the all-core machine, and says nothing.
    let ds = load(&[read(&format!("{FIXTURES}/advisor-roofs-broadwell.csv"))]);
    assert_eq!(ds.machine.expect("machine").id, "advisor-roofs");
    assert!(ds.warnings.iter().all(|w| !w.message.contains("no compute roof")));
}
