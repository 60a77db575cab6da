//! Links made by released versions must open forever, to the same values. Each file in
//! tests/fixtures/links/ is a real link made by that version's encoder; never regenerate or
//! edit one (a failing test here means a change broke old links). A new version adds its own
//! `vN-*.txt` files and a test like these, and keeps the old ones.
//!
//! v1 fixtures (made by the first v1 encoder):
//! - `v1-course.txt`: the app's built-in example (the GPU course's AX and GEMM on a V100),
//!   catalogue machine `v100`, kernel 0 selected.
//! - `v1-deeplearning-ncu.txt`: the five one-metric-per-file Nsight Compute samples
//!   `shared/samples/ncu/DeepLearningProfiling__*` (49 kernels, Eigen names up to 1 207
//!   characters), on the V100 at its 1312 MHz base clock (a custom machine), hierarchical
//!   mode, tensor roof, top 20, kernel 6 selected.
//! - `v1-settings-ert-machine.txt`: the course example with every setting set and the machine
//!   of the ERT sample `shared/samples/ert/…p100.01_Run.018_roofline.json` (loaded from a file).

mod samples;
use roofline_engine::chart::Zoom;
use roofline_engine::domain::counters::Counter;
use roofline_engine::model::Level;
use roofline_engine::share::{self, View};
use roofline_engine::load_dataset;

fn fixture(name: &str) -> View {
    let path = format!("{}/tests/fixtures/links/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let view = share::decode(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Whatever the encoder becomes, what it makes of an old view must decode to that view.
    let again = share::encode(&view).map(|l| l.fragment).unwrap_or_default();
    // A view of one run stays a v1 link: v2 is only for views that compare runs.
    assert!(again.starts_with("v1."), "{name}: re-encoded as {}", again.get(..3).unwrap_or_default());
    assert_eq!(share::decode(&again).as_ref(), Ok(&view), "{name}: re-encoded");
    view
}

fn counters(v: &View, kernel: usize) -> Vec<(&'static str, f64)> {
    v.kernels[kernel].counters.iter().map(|(c, x)| (c.key(), x)).collect()
}

/// The course example's values after the link's 24-bit quantisation.
fn assert_course_kernels(v: &View) {
    assert_eq!(v.kernels.len(), 2);
    assert_eq!(v.kernels[0].name, "ax_kernel (x ← αx, n = 5e8)");
    assert_eq!(v.kernels[1].name, "gemm (n = 5000, cuBLAS DGEMM)");
    assert_eq!((v.kernels[0].launches, v.kernels[1].launches), (1, 1));
    assert_eq!(counters(v, 0), [("time_s", 0.01058197021484375), ("flops_fp64", 499998720.0), ("bytes_dram", 7999979520.0)]);
    assert_eq!(counters(v, 1), [("time_s", 0.0410003662109375), ("flops_fp64", 250001489920.0), ("bytes_dram", 7812546560.0)]);
}

#[test]
fn v1_course_example() {
    let v = fixture("v1-course.txt");
    assert_eq!((v.machine_id.as_str(), v.custom_machine.is_none()), ("v100", true));
    assert_eq!((v.mode.as_str(), v.compute.as_deref(), v.selected, v.top_n, v.theme.as_deref(), v.word_bytes), ("classic", None, Some(0), None, None, 8));
    assert!(v.hidden_levels.is_empty() && v.zoom.is_none() && v.filter.is_empty());
    assert_course_kernels(&v);
}

#[test]
fn v1_deep_learning_ncu_sample() {
    let v = fixture("v1-deeplearning-ncu.txt");
    assert_eq!((v.mode.as_str(), v.compute.as_deref(), v.selected, v.top_n), ("hierarchical", Some("tensor"), Some(6), Some(20)));
    let m = v.custom_machine.as_ref().expect("a custom machine");
    assert_eq!((v.machine_id.as_str(), m.name.as_str(), m.clock_hz, m.base_clock_hz), ("v100", "NVIDIA V100 SXM2 (1530 MHz)", Some(1312e6), Some(1312e6)));
    assert_eq!(m.compute[0].flops_per_s, 6717440000000.0);
    assert_eq!(m.memory_level(Level::L1).map(|l| l.bytes_per_s), Some(12005228758169.934));
    assert_eq!(m.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(828e9));
    assert_eq!(m.flops_per_tensor_inst, Some(512.0));
    assert_eq!(m.links.len(), 2);

    assert_eq!(v.kernels.len(), 49);
    assert_eq!(v.kernels[0].launches, 100);
    assert_eq!(v.kernels[0].name.len(), 623);
    assert!(v.kernels[0].name.starts_with("void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<"));
    assert_eq!(counters(&v, 0), [("cycles", 1040416.0), ("clock_hz", 1299578880.0), ("fp32_fma", 0.0), ("tensor_inst", 0.0), ("bytes_dram", 330186752.0)]);
    assert_eq!(v.kernels[6].name, "volta_fp16_s884cudnn_fp16_256x64_ldg8_relu_f2f_exp_small_nhwc_tn_v1");
    assert_eq!(counters(&v, 6), [("cycles", 1373280.0), ("clock_hz", 1309376512.0), ("fp32_fma", 113246208.0), ("tensor_inst", 127401984.0), ("bytes_dram", 293806080.0)]);
    assert_eq!(counters(&v, 48), [("cycles", 4420.25), ("clock_hz", 1294991360.0), ("fp32_fma", 0.0), ("tensor_inst", 0.0), ("bytes_dram", 6400.0)]);
    assert!(v.kernels.iter().all(|k| k.counters.iter().count() == 5));
    let longest = v.kernels.iter().map(|k| k.name.len()).max();
    assert_eq!(longest, Some(1207), "names in full");
}

/// The fixture is the sample as imported when it was made; the sample, read today, still
/// matches it within the link's quantisation (names exactly). If an importer fix changes the
/// sample's numbers on purpose, this test (not the fixture) is what to update.
#[test]
fn v1_deep_learning_fixture_matches_the_sample() {
    let files = samples::nersc_run();
    let ds = load_dataset(&files).unwrap();
    let v = fixture("v1-deeplearning-ncu.txt");
    assert_eq!(ds.kernels.len(), v.kernels.len());
    for (k, s) in ds.kernels.iter().zip(&v.kernels) {
        assert_eq!((&k.name, k.launches), (&s.name, s.launches));
        for c in Counter::ALL {
            // Σ over launches of cycles / clock (the kernel's time since the per-launch time
            // fix) is derived by the import; the fixture predates that counter.
            if c == Counter::CycleTimeS {
                assert_eq!(s.counters.get(c), None);
                continue;
            }
            assert_eq!(k.counters.get(c).map(share::quantise), s.counters.get(c), "{} {c:?}", k.name);
        }
    }
}

#[test]
fn v1_every_setting_and_a_machine_from_a_file() {
    let v = fixture("v1-settings-ert-machine.txt");
    assert_eq!(v.mode, "walls");
    assert_eq!(v.compute.as_deref(), Some("fp64"));
    assert_eq!(v.hidden_levels, ["l1", "l2"]);
    assert_eq!(v.zoom, Some(Zoom { x: [0.01, 100.0], y: [1e9, 2.5e13] }));
    assert_eq!((v.filter.as_str(), v.top_n, v.selected, v.theme.as_deref(), v.word_bytes), ("gemm", None, Some(1), Some("dark"), 4));
    let m = v.custom_machine.as_ref().expect("the ERT machine");
    assert_eq!(v.machine_id, "ert-kcadmin-uniserver-r5200-g3");
    assert_eq!(m.name, "kcadmin-UniServer-R5200-G3 (ERT)");
    let memory: Vec<(&str, f64)> = m.memory.iter().map(|l| (l.name.as_str(), l.bytes_per_s)).collect();
    assert_eq!(memory, [("L1", 1002830000000.0), ("L2", 541980000000.0), ("L3", 290410000000.0), ("DRAM", 68760000000.0)]);
    assert_eq!(m.compute.iter().map(|c| (c.name.as_str(), c.flops_per_s)).collect::<Vec<_>>(), [("FP64", 288330000000.0)]);
    assert_eq!(m.clock_hz, None);
    assert_course_kernels(&v);
}
