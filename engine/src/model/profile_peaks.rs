//! The machine "as Nsight Compute measured it": the ceilings its roofline sections draw,
//! from the peaks the profile itself carries (issue 12 item 4).
//!
//! Nsight Compute's `SpeedOfLight_RooflineChart` and `…HierarchicalTensorRooflineChart`
//! section files (stored in every full-set report) define each roof as a per-cycle peak times
//! the clock its unit ran at during the profile:
//! - "Theoretical Predicated-On DFMA Operations" (`derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2`,
//!   2 × `sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained`) × "SM Frequency"
//!   (`sm__cycles_elapsed.avg.per_second`); FFMA likewise, HFMA × 4 (HFMA2);
//! - "Theoretical Tensor Operations" (`sm__ops_path_tensor_src_<type>.sum.peak_sustained`) ×
//!   "SM Frequency", one roof per data-type path;
//! - "Theoretical DRAM Bytes Accessible" (`dram__bytes.sum.peak_sustained`) × "DRAM
//!   Frequency" (`dram__cycles_elapsed.avg.per_second`); L2 (`derived__lts__lts2xbar_bytes`) ×
//!   the L2 clock; L1 (`derived__l1tex__lsu_writeback_bytes_mem_lgds`) × the L1 clock.
//!
//! Being at the measured clocks, these are the right roofs for the profile by construction
//! (Nsight Compute locks the clocks, by default to base). What the peaks do not give —
//! matrix types whose stored peak is the sparse one (the unsuffixed FP16/BF16/TF32/INT8 paths,
//! see `import::ncu_metrics`), architecture, links, transaction sizes, data-sheet clocks —
//! comes from the catalogue machine of the same device at the same SM clock, where there is
//! one.

use super::machine::{Ceiling, ComputeKind, Issue, Level, Machine, MemoryLevel, TransactionSizes};
use crate::domain::{Device, Vendor};

/// The machine the device's profiler peaks describe at `sm_clock_hz` (the SM clock measured in
/// the profile), completed from `base` (the catalogue machine of the device, if any); `None`
/// when the device carries no peaks or no SM clock is known.
pub fn profile_machine(device: &Device, sm_clock_hz: Option<f64>, base: Option<&Machine>) -> Option<Machine> {
    let p = device.peaks.as_ref()?;
    let sm_hz = sm_clock_hz.filter(|h| h.is_finite() && *h > 0.0)?;
    let mut compute = Vec::new();
    for (kind, label, per_cycle) in [
        (ComputeKind::Fp64, "FP64", p.fp64_flops_per_cycle),
        (ComputeKind::Fp32, "FP32", p.fp32_flops_per_cycle),
        (ComputeKind::Fp16, "FP16", p.fp16_flops_per_cycle),
    ] {
        if let Some(v) = per_cycle.filter(|v| *v > 0.0) {
            compute.push(Ceiling::vector(label, kind, v * sm_hz));
        }
    }
    for &(t, v) in &p.matrix_ops_per_cycle {
        if v > 0.0 {
            compute.push(Ceiling::matrix(t, v * sm_hz));
        }
    }
    let mut memory = Vec::new();
    for (level, name, per_cycle, hz) in [
        (Level::L1, "L1", p.l1_bytes_per_cycle, p.l1_hz),
        (Level::L2, "L2", p.l2_bytes_per_cycle, p.l2_hz),
        (Level::Dram, "DRAM", p.dram_bytes_per_cycle, p.dram_hz),
    ] {
        if let (Some(b), Some(h)) = (per_cycle.filter(|v| *v > 0.0), hz.filter(|v| *v > 0.0)) {
            memory.push(MemoryLevel { name: name.into(), level, bytes_per_s: b * h });
        }
    }
    if compute.is_empty() && memory.is_empty() {
        return None;
    }
    // Complete from the catalogue entry at the measured SM clock: ceilings of pipes, data types
    // and levels the peaks do not give.
    if let Some(b) = base.map(|b| b.at_clock(sm_hz)) {
        for c in &b.compute {
            if !compute.iter().any(|o: &Ceiling| super::classic::same_roof(o, c)) {
                compute.push(c.clone());
            }
        }
        for l in &b.memory {
            if !memory.iter().any(|o: &MemoryLevel| o.level == l.level) {
                memory.push(l.clone());
            }
        }
    }
    let name = device.name.clone().or_else(|| base.map(|b| b.name.clone())).unwrap_or_else(|| device.describe());
    let issue = match (p.warp_inst_per_cycle, device.sm_count.or(base.and_then(|b| b.sm_count))) {
        (Some(w), Some(sms)) if w > 0.0 && sms > 0 => {
            Some(Issue { compute_units: sms, schedulers_per_unit: 1, inst_per_cycle_per_scheduler: w / f64::from(sms), threads_per_warp: 32 })
        }
        _ => base.and_then(|b| b.issue.clone()),
    };
    Some(Machine {
        id: format!("{}-ncu", base.map_or_else(|| device.arch.clone().unwrap_or_else(|| "gpu".into()), |b| b.id.clone())),
        name: format!("{name} as Nsight Compute measured it"),
        source: match base {
            Some(b) => format!(
                "the profile's own peaks (Nsight Compute `*.peak_sustained` × the clocks measured during the profile), as its roofline sections draw them; other ceilings from {} at the same SM clock",
                b.name
            ),
            None => "the profile's own peaks (Nsight Compute `*.peak_sustained` × the clocks measured during the profile), as its roofline sections draw them".into(),
        },
        vendor: Some(Vendor::Nvidia),
        arch: device.arch.clone().or_else(|| base.and_then(|b| b.arch.clone())),
        generation: base.and_then(|b| b.generation.clone()),
        sm_count: device.sm_count.or(base.and_then(|b| b.sm_count)),
        memory_bytes: device.memory_bytes.or(base.and_then(|b| b.memory_bytes)),
        l2_bytes: device.l2_bytes.or(base.and_then(|b| b.l2_bytes)),
        compute,
        memory,
        flops_per_tensor_inst: base.and_then(|b| b.flops_per_tensor_inst),
        clock_hz: Some(sm_hz),
        base_clock_hz: base.and_then(|b| b.base_clock_hz),
        boost_clock_hz: base.and_then(|b| b.boost_clock_hz).or(device.max_sm_clock_hz),
        issue,
        transaction_bytes: Some(base.and_then(|b| b.transaction_bytes.clone()).unwrap_or(TransactionSizes::NVIDIA)),
        theoretical: None,
        empirical: None,
        links: base.map(|b| b.links.clone()).unwrap_or_default(),
        per_kernel_clock: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{DataType, DevicePeaks};

    #[test]
    fn peaks_times_measured_clocks() {
        // 132 SMs; 8448 FP64 FLOPs per SM cycle (132 × 64); 540672 BF16 ops per cycle
        // (132 × 4096); DRAM 1280 bytes per cycle at 2.62 GHz; SM clock measured 1.5 GHz.
        let d = Device {
            name: Some("NVIDIA GH200 480GB".into()),
            arch: Some("sm_90".into()),
            sm_count: Some(132),
            peaks: Some(DevicePeaks {
                fp64_flops_per_cycle: Some(8448.0),
                matrix_ops_per_cycle: vec![(DataType::Bf16, 540_672.0)],
                warp_inst_per_cycle: Some(528.0),
                dram_bytes_per_cycle: Some(1280.0),
                dram_hz: Some(2.62e9),
                ..DevicePeaks::default()
            }),
            ..Device::default()
        };
        let m = profile_machine(&d, Some(1.5e9), None).expect("a machine");
        assert_eq!(m.name, "NVIDIA GH200 480GB as Nsight Compute measured it");
        // 8448 × 1.5e9 = 12.672 TFLOP/s; 540672 × 1.5e9 = 811.008 TFLOP/s; 1280 × 2.62e9 = 3353.6 GB/s.
        assert_eq!(m.compute_ceiling(ComputeKind::Fp64).map(|c| c.flops_per_s), Some(12.672e12));
        assert_eq!(m.matrix_ceiling(DataType::Bf16).map(|c| c.flops_per_s), Some(811.008e12));
        assert_eq!(m.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(3353.6e9));
        // 528 warp instructions per cycle over 132 SMs (4 per SM) × 1.5 GHz = 792 G warp inst/s.
        assert_eq!(m.warp_inst_per_s(), Some(792e9));
        assert_eq!((m.arch.as_deref(), m.clock_hz), (Some("sm_90"), Some(1.5e9)));
        assert_eq!(profile_machine(&d, None, None), None, "no SM clock, no roofs");
    }
}
