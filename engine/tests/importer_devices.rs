//! The devices nvprof, rocprof and rocprof-compute files name, read from the real samples in
//! `shared/samples/` (read in place) and the fixtures: names as the files print them, without
//! nvprof's device index, and the kernel time each device ran.

use roofline_engine::domain::{Device, Vendor};
use roofline_engine::import;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{read, sample};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

/// The devices one file's importer reports, and each launch's device name.
fn devices_of(f: &SourceFile) -> (Vec<Device>, Vec<Option<String>>) {
    let text = std::str::from_utf8(&f.bytes).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    let imp = import::detect(text).unwrap_or_else(|| panic!("{}: not detected", f.name));
    let got = imp.import(&f.name, text).unwrap_or_else(|e| panic!("{e}"));
    let names = got.launches.iter().map(|l| l.device.and_then(|i| got.devices.get(usize::from(i))).and_then(|d| d.name.clone())).collect();
    (got.devices, names)
}

fn names(ds: &Dataset) -> Vec<&str> {
    ds.devices.runs.iter().filter_map(|r| r.device.name.as_deref()).collect()
}

#[test]
fn nvprof_metric_tables_name_their_gpu() {
    // "Device" column: "GeForce GTX 1080 Ti (0)" on all 120 rows of the one kernel.
    let (d, per_launch) = devices_of(&sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv"));
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].name.as_deref(), d[0].vendor), (Some("GeForce GTX 1080 Ti"), Some(Vendor::Nvidia)));
    assert_eq!(per_launch, vec![Some("GeForce GTX 1080 Ti".to_string())]);
    // lavaMD ran on device 1: "GeForce GTX 760 (1)".
    let ds = load(&[sample("nvprof/magus__apps_rodinia30_lavaMD_metrics.csv")]);
    assert_eq!(names(&ds), ["GeForce GTX 760"]);
    assert_eq!(ds.devices.runs[0].launches, 1, "1 invocation of kernel_gpu_cuda");
    let ds = load(&[sample("nvprof/magus__apps_cudasdk80_7_CUDALibraries_simpleCUBLAS_simpleCUBLAS_metrics.csv")]);
    assert_eq!(names(&ds), ["GeForce GTX 950"]);
}

#[test]
fn nvprof_text_metrics_name_their_gpu_and_the_summary_time_lands_on_it() {
    let metrics = sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile");
    let (d, per_launch) = devices_of(&metrics);
    // `Device "GeForce GTX 1070 (0)"` heads the 7 kernel groups.
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].name.as_deref(), Some("GeForce GTX 1070"));
    assert_eq!(per_launch.len(), 7);
    assert!(per_launch.iter().all(|n| n.as_deref() == Some("GeForce GTX 1070")));
    // The text summary names no device: its launches stay unattributed.
    let (d, _) = devices_of(&sample("nvprof/thrust2D__rodinia_srad_srad_non_shared.profile.time"));
    assert!(d.is_empty());
}

#[test]
fn nvprof_trace_attributes_kernel_time_to_its_gpu() {
    let ds = load(&[sample("nvprof/magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv")]);
    assert_eq!(names(&ds), ["GeForce GTX 1080 Ti"]);
    let run = &ds.devices.runs[0];
    // 100 kernel rows on "GeForce GTX 1080 Ti (0)", Σ Duration = 33.522205 ms (the copies are
    // transfers, not kernel time).
    assert_eq!(run.launches, 100);
    assert!((run.kernel_time_s - 33.522205e-3).abs() < 1e-12, "{}", run.kernel_time_s);
    assert_eq!(ds.main_device().and_then(|r| r.device.name.as_deref()), Some("GeForce GTX 1080 Ti"));
}

#[test]
fn rocprof_tables_give_a_gpu_index() {
    // rocprof v1: gpu-id 8 on all 1004 dispatches.
    let ds = load(&[sample("rocprof/HPCTrainingExamples__rocm-blogs-codes_finite-difference_examples_.xr_09-11-2023_18-57-23_laplacian_dp_kernel1_data_movement.csv")]);
    assert_eq!(names(&ds), ["GPU 8"]);
    assert_eq!(ds.devices.runs[0].launches, 1004);
    // Omniperf / rocprof-compute tables: GPU_ID 2.
    for f in ["rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv", "rocprof/omniperf__tests_workloads_vcopy_MI300X_A1_SQ_INST_LEVEL_VMEM.csv"] {
        assert_eq!(names(&load(&[sample(f)])), ["GPU 2"], "{f}");
    }
    // rocprofv3: Agent_Id "Agent 4".
    let ds = load(&[read(&format!("{FIXTURES}/rocprofv3_counter_collection.csv"))]);
    assert_eq!(names(&ds), ["GPU 4"]);
    // 2 dispatches, 20000 + 30000 ns.
    assert!((ds.devices.runs[0].kernel_time_s - 50_000e-9).abs() < 1e-18);
}

#[test]
fn rocprof_compute_sysinfo_describes_the_gpu() {
    // sysinfo.csv: gpu_model MI200, gpu_arch gfx90a, cu_per_gpu 104, max_sclk 1700 MHz,
    // max_mclk 1600 MHz, gpu_l2 8192 KiB.
    let sys = sample("rocprof/omniperf__tests_workloads_vcopy_MI200_sysinfo.csv");
    let (d, _) = devices_of(&sys);
    assert_eq!(d.len(), 1);
    let gpu = &d[0];
    assert_eq!((gpu.name.as_deref(), gpu.arch.as_deref(), gpu.vendor), (Some("MI200"), Some("gfx90a"), Some(Vendor::Amd)));
    assert_eq!(gpu.sm_count, Some(104));
    assert_eq!(gpu.max_sm_clock_hz, Some(1.7e9));
    assert_eq!(gpu.memory_clock_hz, Some(1.6e9));
    assert_eq!(gpu.l2_bytes, Some(8192.0 * 1024.0));
    assert_eq!(gpu.describe(), "MI200 (gfx90a, 104 CUs)");
    // A device, not a machine (issue 41): the catalogue entry of the device gives the roofs.
    let ds = load(&[sys]);
    assert_eq!(names(&ds), ["MI200"]);
    assert!(ds.machine.is_none());
    // Beside the empirical roofline.csv, the device keeps what sysinfo.csv says and the machine
    // is roofline.csv's alone.
    let roof = sample("rocprof/omniperf__tests_workloads_vcopy_MI200_roofline.csv");
    let ds = load(&[roof, sample("rocprof/omniperf__tests_workloads_vcopy_MI200_sysinfo.csv")]);
    let gpu = &ds.devices.runs[0].device;
    assert_eq!((gpu.arch.as_deref(), gpu.sm_count), (Some("gfx90a"), Some(104)));
    let m = ds.machine.expect("machine");
    assert_eq!(m.memory_level(roofline_engine::model::Level::Dram).map(|l| l.bytes_per_s), Some(1388.9302e9), "HBMBw of device 0, empirical");
}

#[test]
fn rocprofv3_agent_info_completes_the_agent_of_a_counter_file() {
    let info = read(&format!("{FIXTURES}/rocprofv3-agent-info.csv"));
    // The GPU agent (node 1) only: gfx900, Cu_Count 64, Max_Engine_Clk_Fcompute 1630 MHz.
    let (d, _) = devices_of(&info);
    assert_eq!(d.len(), 1, "the CPU agent is not a device");
    assert_eq!((d[0].name.as_deref(), d[0].arch.as_deref(), d[0].sm_count, d[0].max_sm_clock_hz), (Some("GPU 1"), Some("gfx900"), Some(64), Some(1.63e9)));
    // With the counter collection of Agent_Id 1 (one dispatch), in either order: one device.
    let counters = read(&format!("{FIXTURES}/rocprofv3-counter-collection-agent1.csv"));
    for files in [[info.clone(), counters.clone()], [counters, info]] {
        let ds = load(&files);
        assert_eq!(ds.devices.runs.len(), 1);
        let run = &ds.devices.runs[0];
        assert_eq!((run.device.arch.as_deref(), run.device.sm_count, run.launches), (Some("gfx900"), Some(64), 1));
        assert_eq!(run.device.describe(), "GPU 1 (gfx900, 64 CUs)");
    }
}
