//! Nsight Compute reports read by the engine compiled to wasm32, in the browser: every
//! sample report, embedded at compile time from ../shared/samples (not copied into the
//! repository), whole and in the app's 4 MiB chunks. Expected values: NVIDIA's reader
//! (`ncu_report`) on the same files, as in engine/tests/import_ncu_rep.rs.

use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::domain::counters::Counter;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! report {
    ($file:literal) => {
        ($file, include_bytes!(concat!("../../../shared/samples/ncu-rep/", $file)) as &[u8])
    };
}

/// (file, bytes, launches per kernel, Σ duration in ns per kernel, tool version).
#[allow(clippy::type_complexity)]
const REPORTS: [(&str, &[u8], &[u64], &[f64], Option<&str>); 6] = [
    {
        let (f, b) = report!("CudaProgramming__profiling_profiles_smemTranspose.ncu-rep");
        (f, b, &[1, 1, 1, 1, 1], &[523712.0, 126784.0, 145120.0, 144000.0, 142048.0], Some("Nsight Compute 2023.1.0.0 (build 32376155)"))
    },
    {
        let (f, b) = report!("Twisty__profile.nsight-cuprof-report");
        (f, b, &[1, 1], &[5952.0, 159322991488.0], None)
    },
    {
        let (f, b) = report!("cs599k__profile.ncu-rep");
        (f, b, &[1, 9], &[777472.0, 5269952.0], Some("Nsight Compute 2025.1.0.0 (build 35237751)"))
    },
    {
        let (f, b) = report!("cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep");
        (f, b, &[1, 2], &[142560.0, 305184.0], Some("Nsight Compute 2025.1.0.0 (build 35237751)"))
    },
    {
        let (f, b) = report!("cuda-mlp-inference__report.ncu-rep");
        (f, b, &[1], &[52576.0], Some("Nsight Compute 2024.2.1.0 (build 34372528)"))
    },
    {
        let (f, b) = report!("self-join-MiSTIC__profile.out.ncu-rep");
        (f, b, &[4], &[29921255616.0], Some("Nsight Compute 2021.2.2.0 (build 30282580)"))
    },
];

#[wasm_bindgen_test]
fn every_sample_report_loads_in_wasm_whole_and_in_chunks() {
    for (file, bytes, launches, times_ns, tool) in REPORTS {
        let whole = roofline_engine::load_dataset(&[roofline_engine::SourceFile { name: file.into(), bytes: bytes.to_vec() }]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(whole.files[0].format, "ncu-rep", "{file}");
        assert_eq!(whole.files[0].tool.as_deref(), tool, "{file}");
        assert_eq!(whole.kernels.iter().map(|k| k.launches).collect::<Vec<_>>(), launches, "{file}");
        for (k, t) in whole.kernels.iter().zip(times_ns) {
            let got = k.counters.get(Counter::TimeS).expect("time");
            assert!((got - t * 1e-9).abs() <= 1e-12 * got, "{file}: {} {got}", k.name);
        }
        // As the app reads a picked file: 4 MiB slices pushed to the builder.
        let mut b = DatasetBuilder::new();
        for chunk in bytes.chunks(4 << 20) {
            b.push_chunk(file, chunk).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(b.finish().unwrap_or_else(|e| panic!("{e}")), whole, "{file}");
    }
}

#[wasm_bindgen_test]
fn gh200_report_flops_and_device_in_wasm() {
    let (file, bytes, ..) = REPORTS[3];
    let ds = roofline_engine::load_dataset(&[roofline_engine::SourceFile { name: file.into(), bytes: bytes.to_vec() }]).expect("loads");
    // fadd 134217728 + fmul 201326592 per silu launch, 2 launches (NVIDIA's reader: rate × smsp__cycles_elapsed.avg).
    assert_eq!(ds.kernels[1].flops(roofline_engine::domain::profile::Precision::Fp32).map(f64::round), Some(671088640.0));
    let d = &ds.main_device().expect("device").device;
    assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("NVIDIA GH200 480GB"), Some("sm_90"), Some(132)));
}
