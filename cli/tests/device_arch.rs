//! Older NVIDIA parts named only by their product name (nvprof's `Device` column) get their
//! architecture in `device.arch` of `roofline analyze --json` (issue 42), from NVIDIA's CUDA
//! GPUs compute-capability list (`engine/src/domain/gpu_arch.rs`). The samples are read in
//! place from shared/samples/ (SOURCES.md names each one's GPU).

use serde_json::Value;

mod common;
use common::roofline;

const NVPROF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples/nvprof/");

fn device_of(file: &str) -> Value {
    let out = roofline(&["analyze", &format!("{NVPROF}{file}"), "--json"]);
    assert!(out.status.success(), "{file}: exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    v["device"].clone()
}

#[test]
fn nvprof_device_names_give_their_architecture() {
    // GeForce GTX 1080 Ti: Pascal GP102, compute capability 6.1; GTX 950: Maxwell GM206, 5.2;
    // GTX 760 (device 1 of its machine): Kepler GK104, 3.0; GTX 1070: Pascal GP104, 6.1.
    for (file, name, arch) in [
        ("magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv", "GeForce GTX 1080 Ti", "sm_61"),
        ("magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv", "GeForce GTX 1080 Ti", "sm_61"),
        ("magus__apps_cudasdk80_7_CUDALibraries_simpleCUBLAS_simpleCUBLAS_metrics.csv", "GeForce GTX 950", "sm_52"),
        ("magus__apps_rodinia30_lavaMD_metrics.csv", "GeForce GTX 760", "sm_30"),
        ("thrust2D__rodinia_srad_srad_non_shared.profile", "GeForce GTX 1070", "sm_61"),
    ] {
        let d = device_of(file);
        assert_eq!((d["name"].as_str(), d["arch"].as_str()), (Some(name), Some(arch)), "{file}: {d}");
    }
}
