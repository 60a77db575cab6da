//! Per-architecture rates: what one SM (CU, Xe-core) does per cycle, for GPUs the catalogue
//! does not list. A device known only by its attributes (architecture, SM count, clock, memory
//! clock and bus width, as Nsight Compute's `device__attribute_*` and rocprof-compute's
//! `sysinfo.csv` give them) becomes a machine of SMs × rate × clock ([`derived_machine`]).
//!
//! Rates are FLOPs per cycle per SM with an FMA counted as 2 FLOPs, dense (no structured
//! sparsity). Vector rates follow the CUDA C++ Programming Guide's table of native arithmetic
//! throughput per SM per clock and the vendor whitepapers' SM descriptions; every rate is
//! checked against the catalogue's data-sheet peaks by the consistency test
//! (`catalogue::checks`): SMs × rate × clock reproduces each catalogue GPU's peaks.
//!
//! **Consumer and data-centre parts of one architecture differ** on sm_86, sm_89 and sm_120:
//! GeForce cards run tensor instructions that accumulate in FP32 (BF16, TF32, and FP16 with
//! FP32 accumulation) at half the rate of the data-centre and professional cards (A10 BF16
//! 125 TFLOPS at 72 SMs vs RTX 4090 BF16 165.2 at 128 SMs; Ada whitepaper, A10 data sheet).
//! BF16, TF32 and FP16 take the [`ArchRates::matrix_geforce`] rates when the device's name
//! says "GeForce". FP16's FP16-accumulate rate, twice that, stays as a second ceiling
//! ([`super::FP16_ACCUMULATE`]): the counters merge both accumulations, and Nsight Compute's
//! own FP16 path peak on a GeForce card is the FP32-accumulate rate, so the FP16 roof is that
//! rate and a kernel above it is judged against the second. (The L40, a data-centre card,
//! halves every tensor type, BF16 181 TFLOPS in its data sheet: it has its own catalogue
//! entry; a derived L40 would get the full rate, an upper bound.) The
//! FP64 rate differs between GA100 (sm_80: A100, A30, 64 FP64 FLOPs per cycle per SM) and
//! GA10x (sm_86: A10, A40, RTX 30, 8): architectures, not products, so the table keys hold.

use crate::domain::{DataType, Device, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Issue, Level, Machine, MemoryLevel, TransactionSizes};

use super::{finish, set, vector};
use DataType::*;

/// What one SM (CU, Xe-core) of an architecture does per cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchRates {
    /// As compilers name it: `sm_90`, `gfx942`, `pvc`.
    pub arch: &'static str,
    pub vendor: Vendor,
    pub generation: &'static str,
    /// Vector FLOPs per cycle per SM, FMA = 2.
    pub fp64: f64,
    pub fp32: f64,
    /// `None` where no source states it.
    pub fp16: Option<f64>,
    /// Dense matrix FLOPs (INT8: operations) per cycle per SM, per input data type, at the
    /// fastest accumulator; FP16 first (the tensor roof).
    pub matrix: &'static [(DataType, f64)],
    /// GeForce overrides of [`ArchRates::matrix`] (FP32 accumulation at half rate).
    pub matrix_geforce: &'static [(DataType, f64)],
    /// INT32 operations per cycle per SM, an IMAD counted as 2 as NVIDIA's whitepapers count
    /// it (A100 "Peak INT32 TOPS 19.5" = 108 × 64 lanes × 2 × 1.41 GHz); `None` where
    /// unpublished.
    pub int32: Option<f64>,
    /// Warp schedulers (NVIDIA processing blocks, AMD SIMDs, Intel vector engines) per SM.
    pub schedulers_per_sm: u32,
    /// Threads per warp (wavefront; SIMD width on Intel).
    pub warp_size: u32,
    /// FLOPs per tensor-pipe warp instruction: Volta only (HMMA.884 = 512, Ding & Williams
    /// §IV-E). From Turing on, one pipe's instructions do different amounts of work.
    pub flops_per_tensor_inst: Option<f64>,
    /// Ding & Williams' transaction sizes: NVIDIA from Volta on (32-byte sectors).
    pub transaction_bytes: Option<TransactionSizes>,
    /// Whether shared memory is the L1 array (NVIDIA from Volta on; Pascal and AMD have a
    /// separate shared memory / LDS).
    pub shared_in_l1: bool,
    /// Where the rates come from.
    pub source: &'static str,
}

const NV: Option<TransactionSizes> = Some(TransactionSizes::NVIDIA);

/// Every architecture with rates, oldest first per vendor.
pub static ARCHES: [ArchRates; 14] = [
    // GP100 SM: 64 FP32 cores, 32 FP64 units, two processing blocks with one scheduler each;
    // FP16 (half2) at twice FP32 (P100 data sheet: 5.3 / 10.6 / 21.2 TFLOPS at 56 SMs).
    ArchRates {
        arch: "sm_60",
        vendor: Vendor::Nvidia,
        generation: "Pascal",
        fp64: 64.0,
        fp32: 128.0,
        fp16: Some(256.0),
        matrix: &[],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 2,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: None,
        shared_in_l1: false,
        source: "NVIDIA Tesla P100 whitepaper (GP100 SM); P100 data sheet",
    },
    // GP10x SM (GTX 10 series, Tesla P40/P4): 128 FP32 cores, 4 schedulers; FP64 at 1/32 and
    // FP16 at 1/64 of FP32 (CUDA C++ Programming Guide throughput table, CC 6.1).
    ArchRates {
        arch: "sm_61",
        vendor: Vendor::Nvidia,
        generation: "Pascal",
        fp64: 8.0,
        fp32: 256.0,
        fp16: Some(4.0),
        matrix: &[],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: None,
        shared_in_l1: false,
        source: "NVIDIA GeForce GTX 1080 whitepaper (GP104 SM); CUDA C++ Programming Guide, CC 6.1",
    },
    // GV100 SM: 64 FP32, 32 FP64, 64 INT32 lanes, 8 tensor cores × 64 FP16 FMA (V100
    // whitepaper; 125 TFLOPS = 80 × 1024 × 1.53 GHz).
    ArchRates {
        arch: "sm_70",
        vendor: Vendor::Nvidia,
        generation: "Volta",
        fp64: 64.0,
        fp32: 128.0,
        fp16: Some(256.0),
        matrix: &[(Fp16, 1024.0)],
        matrix_geforce: &[],
        int32: Some(128.0),
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: Some(512.0),
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA Tesla V100 whitepaper (GV100 SM); Ding & Williams 2019",
    },
    // TU10x SM: 64 FP32, 2 FP64 units (1/32), 8 tensor cores × 64 FP16 FMA; INT8 twice FP16
    // (T4 data sheet: 8.1 FP32, 65 FP16 tensor, 130 INT8 TOPS at 40 SMs × 1.59 GHz). GeForce
    // Turing halves FP16 with FP32 accumulation (the module doc: the FP16 roof takes that rate).
    ArchRates {
        arch: "sm_75",
        vendor: Vendor::Nvidia,
        generation: "Turing",
        fp64: 4.0,
        fp32: 128.0,
        fp16: Some(256.0),
        matrix: &[(Fp16, 1024.0), (Int8, 2048.0)],
        matrix_geforce: &[(Fp16, 512.0)],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA Turing whitepaper (TU10x SM); NVIDIA T4 data sheet",
    },
    // GA100 SM: 64 FP32, 32 FP64, 64 INT32, 4 tensor cores × 256 FP16 FMA (A100 whitepaper:
    // "1024 dense FP16/FP32 FMA operations per clock"); FP16 vector 4× FP32 (78 TFLOPS).
    ArchRates {
        arch: "sm_80",
        vendor: Vendor::Nvidia,
        generation: "Ampere",
        fp64: 64.0,
        fp32: 128.0,
        fp16: Some(512.0),
        matrix: &[(Fp16, 2048.0), (Bf16, 2048.0), (Tf32, 1024.0), (Fp64, 128.0), (Int8, 4096.0)],
        matrix_geforce: &[],
        int32: Some(128.0),
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA A100 whitepaper (GA100 SM); A100 data sheet",
    },
    // GA10x SM: 128 FP32, FP64 1/32, FP16 vector 1:1, 4 tensor cores × 128 FP16 FMA (A10 data
    // sheet: 31.2 FP32, 62.5 TF32, 125 BF16/FP16, 250 INT8 at 72 SMs × 1.695 GHz). GeForce
    // Ampere halves FP32-accumulate (RTX 3090: 71 TFLOPS FP16/FP32-acc vs 142 FP16-acc).
    ArchRates {
        arch: "sm_86",
        vendor: Vendor::Nvidia,
        generation: "Ampere",
        fp64: 8.0,
        fp32: 256.0,
        fp16: Some(256.0),
        matrix: &[(Fp16, 1024.0), (Bf16, 1024.0), (Tf32, 512.0), (Int8, 2048.0)],
        matrix_geforce: &[(Fp16, 512.0), (Bf16, 512.0), (Tf32, 256.0)],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA Ampere GA102 whitepaper; NVIDIA A10 data sheet",
    },
    // AD10x SM: 128 FP32, FP64 1/64, FP16 vector 1:1, 4 tensor cores with FP8 (L4 data sheet:
    // 30.3 FP32, 60 TF32, 121 BF16, 242.5 FP8/INT8 at 58 SMs × 2.04 GHz; L40S: 91.6, 183,
    // 366, 733 at 142 × 2.52). GeForce Ada: BF16 165.2, TF32 82.6 at 128 × 2.52 (half).
    ArchRates {
        arch: "sm_89",
        vendor: Vendor::Nvidia,
        generation: "Ada Lovelace",
        fp64: 4.0,
        fp32: 256.0,
        fp16: Some(256.0),
        matrix: &[(Fp16, 1024.0), (Bf16, 1024.0), (Tf32, 512.0), (Fp8, 2048.0), (Int8, 2048.0)],
        matrix_geforce: &[(Fp16, 512.0), (Bf16, 512.0), (Tf32, 256.0)],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA Ada Lovelace whitepaper (RTX 4090 appendix); NVIDIA L4 and L40S data sheets",
    },
    // GH100 SM: 128 FP32, 64 FP64, 64 INT32; tensor cores twice A100's per SM, 2048 dense FP16
    // FMA per clock (H100 data sheet: 989.4 FP16 = 132 × 4096 × 1.83 GHz; FP64 tensor 66.9 =
    // 132 × 256 × 1.98 GHz).
    ArchRates {
        arch: "sm_90",
        vendor: Vendor::Nvidia,
        generation: "Hopper",
        fp64: 128.0,
        fp32: 256.0,
        fp16: Some(512.0),
        matrix: &[(Fp16, 4096.0), (Bf16, 4096.0), (Tf32, 2048.0), (Fp8, 8192.0), (Fp64, 256.0), (Int8, 8192.0)],
        matrix_geforce: &[],
        int32: Some(128.0),
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA H100 whitepaper and data sheet",
    },
    // Blackwell data-centre SM (B200, GB200): tensor twice Hopper per SM; FP6 at the FP8 rate,
    // FP4 twice; FP64 tensor at the FP64 vector rate (HGX B200: 2.25 PF FP16, 4.5 FP8/FP6/
    // INT8, 9 FP4, 40 TF FP64 and FP64 tensor per GPU). FP16 vector: no source.
    ArchRates {
        arch: "sm_100",
        vendor: Vendor::Nvidia,
        generation: "Blackwell",
        fp64: 128.0,
        fp32: 256.0,
        fp16: None,
        matrix: &[
            (Fp16, 8192.0),
            (Bf16, 8192.0),
            (Tf32, 4096.0),
            (Fp8, 16384.0),
            (Fp6, 16384.0),
            (Fp4, 32768.0),
            (Fp64, 128.0),
            (Int8, 16384.0),
        ],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA Blackwell data sheet (HGX B200, GB200); B200 device attributes (148 SMs)",
    },
    // GB20x SM (RTX 50, RTX PRO Blackwell): 128 FP32, FP64 1/64, FP16 vector 1:1; tensor with
    // FP4 (RTX 5090: 3352 AI TOPS = FP4 sparse = 170 × 8192 × 2.407 GHz; FP16 838 sparse).
    // GeForce: FP16 with FP32 accumulation 209.5 dense on the 5090 (half); professional parts
    // are taken at the full rate, an upper bound.
    ArchRates {
        arch: "sm_120",
        vendor: Vendor::Nvidia,
        generation: "Blackwell",
        fp64: 4.0,
        fp32: 256.0,
        fp16: Some(256.0),
        matrix: &[(Fp16, 1024.0), (Bf16, 1024.0), (Tf32, 512.0), (Fp8, 2048.0), (Fp4, 4096.0)],
        matrix_geforce: &[(Fp16, 512.0), (Bf16, 512.0), (Tf32, 256.0)],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 32,
        flops_per_tensor_inst: None,
        transaction_bytes: NV,
        shared_in_l1: true,
        source: "NVIDIA GeForce RTX 50 series specifications (AI TOPS, CUDA cores, boost clocks)",
    },
    // CDNA 2 CU: 4 SIMDs × 16 lanes, FP64 128 FLOPs per clock; FP32 256 with packed FMA
    // (`v_pk_fma_f32`: MI250X data sheet "Peak Single Precision Packed FP32 95.7 TF" = 220 ×
    // 256 × 1.7 GHz; its "FP32 vector" 47.9 is the unpacked rate, 128); MFMA per
    // rocprof-compute's gfx90a peaks (F16/BF16/I8 1024, F32/F64 256 per CU per clock; MI250X
    // 383 TF = 220 × 1024 × 1.7 GHz).
    ArchRates {
        arch: "gfx90a",
        vendor: Vendor::Amd,
        generation: "CDNA 2",
        fp64: 128.0,
        fp32: 256.0,
        fp16: None,
        matrix: &[(Fp16, 1024.0), (Bf16, 1024.0), (Fp32, 256.0), (Fp64, 256.0), (Int8, 1024.0)],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 64,
        flops_per_tensor_inst: None,
        transaction_bytes: None,
        shared_in_l1: false,
        source: "AMD MI210/MI250X data sheets (packed FP32); rocprofiler-compute gfx90a speed-of-light peaks",
    },
    // CDNA 3 CU: ROCm "MI300 microarchitecture", FLOPS/clock/CU: matrix FP64 256, vector FP64
    // 128, matrix FP32 256, vector FP32 256, TF32 1024, FP16/BF16 2048, FP8/INT8 4096.
    ArchRates {
        arch: "gfx942",
        vendor: Vendor::Amd,
        generation: "CDNA 3",
        fp64: 128.0,
        fp32: 256.0,
        fp16: None,
        matrix: &[(Fp16, 2048.0), (Bf16, 2048.0), (Tf32, 1024.0), (Fp8, 4096.0), (Fp32, 256.0), (Fp64, 256.0), (Int8, 4096.0)],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 64,
        flops_per_tensor_inst: None,
        transaction_bytes: None,
        shared_in_l1: false,
        source: "ROCm docs, MI300 microarchitecture (peak FLOPS/clock/CU)",
    },
    // CDNA 4 CU: ROCm "MI350 Series microarchitecture" peaks ÷ (256 CUs × 2.4 GHz): vector and
    // matrix FP64 128, FP32 256, FP16 vector 256, FP16/BF16 4096, FP8/INT8 8192, FP6/FP4
    // 16384; no TF32 matrix.
    ArchRates {
        arch: "gfx950",
        vendor: Vendor::Amd,
        generation: "CDNA 4",
        fp64: 128.0,
        fp32: 256.0,
        fp16: Some(256.0),
        matrix: &[(Fp16, 4096.0), (Bf16, 4096.0), (Fp8, 8192.0), (Fp6, 16384.0), (Fp4, 16384.0), (Fp32, 256.0), (Fp64, 128.0), (Int8, 8192.0)],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 4,
        warp_size: 64,
        flops_per_tensor_inst: None,
        transaction_bytes: None,
        shared_in_l1: false,
        source: "ROCm docs, MI350 Series microarchitecture (peak theoretical performance)",
    },
    // Xe-HPC Xe-core: 8 vector engines × 16 FP64/FP32 lanes, 8 XMX engines × 256 FP16 FMA
    // (Intel ARK 232873 and the Xe-HPC overview: Max 1550 52.4 TF FP64, 838.9 FP16 XMX).
    ArchRates {
        arch: "pvc",
        vendor: Vendor::Intel,
        generation: "Xe-HPC",
        fp64: 256.0,
        fp32: 256.0,
        fp16: None,
        matrix: &[(Fp16, 4096.0), (Bf16, 4096.0), (Tf32, 2048.0), (Int8, 8192.0)],
        matrix_geforce: &[],
        int32: None,
        schedulers_per_sm: 8,
        warp_size: 16,
        flops_per_tensor_inst: None,
        transaction_bytes: None,
        shared_in_l1: true,
        source: "Intel ARK 232873 (Data Center GPU Max 1550); Intel Xe-HPC architecture overview",
    },
];

/// The rates of an architecture as compilers name it (`sm_86`, `gfx942`), case-insensitive.
/// Target features and variants name the same hardware: ROCm's `gfx90a:sramecc+:xnack-`,
/// CUDA's architecture-specific `sm_90a` and family `sm_100f`.
pub fn arch_rates(arch: &str) -> Option<&'static ArchRates> {
    let base = arch.trim().split(':').next().unwrap_or("").to_ascii_lowercase();
    let base = match base.strip_suffix(['a', 'f']) {
        Some(s) if base.starts_with("sm_") => s.to_string(),
        _ => base,
    };
    ARCHES.iter().find(|r| r.arch == base)
}

impl ArchRates {
    /// Dense matrix rates for a part: GeForce overrides applied when `geforce`.
    pub fn matrix_rates(&self, geforce: bool) -> Vec<(DataType, f64)> {
        self.matrix
            .iter()
            .map(|&(t, rate)| {
                let own = self.matrix_geforce.iter().find(|(g, _)| *g == t).filter(|_| geforce);
                (t, own.map_or(rate, |&(_, r)| r))
            })
            .collect()
    }
}

/// Whether a device name is a GeForce card (FP32-accumulate tensor work at half rate).
pub fn is_geforce(name: &str) -> bool {
    name.to_ascii_lowercase().contains("geforce")
}

/// DRAM bandwidth from the device's memory clock and bus width: 2 × clock × bits / 8, the
/// formula CUDA's deviceQuery and bandwidthTest samples print ("Memory Clock rate" is half the
/// data rate: double data rate). A100-PCIE-40GB: 2 × 1215 MHz × 5120 / 8 = 1555.2 GB/s.
pub fn dram_bytes_per_s(memory_clock_hz: f64, bus_bits: u32) -> f64 {
    2.0 * memory_clock_hz * bus_bits as f64 / 8.0
}

/// A machine for a GPU the catalogue does not list, from the device's attributes: SMs × the
/// architecture's rates × the device's maximum SM clock, and DRAM from memory clock × bus
/// width. `None` without an architecture that has rates, an SM count or a clock.
pub fn derived_machine(device: &Device) -> Option<Machine> {
    let d = device.clone().normalised();
    let arch = d.arch.as_deref()?;
    let rates = arch_rates(arch)?;
    let sms = d.sm_count.filter(|&n| n > 0)?;
    let clock = d.max_sm_clock_hz.filter(|c| c.is_finite() && *c > 0.0)?;
    let geforce = d.name.as_deref().is_some_and(is_geforce);
    let peak = |per_sm: f64| sms as f64 * per_sm * clock;

    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, peak(rates.fp64)));
    compute.extend(vector("FP32", ComputeKind::Fp32, peak(rates.fp32)));
    if let Some(fp16) = rates.fp16 {
        compute.extend(vector("FP16", ComputeKind::Fp16, peak(fp16)));
    }
    compute.extend(rates.matrix_rates(geforce).into_iter().map(|(t, r)| Ceiling::matrix(t, peak(r))));
    // A GeForce card's FP16-accumulate rate, where its FP16 roof is the FP32-accumulate one.
    if let Some(&(_, full)) = rates.matrix.iter().find(|(t, _)| *t == Fp16).filter(|_| geforce && rates.matrix_geforce.iter().any(|(t, _)| *t == Fp16)) {
        let mut fast = Ceiling::matrix(Fp16, peak(full));
        fast.name = super::FP16_ACCUMULATE.into();
        let after_fp16 = compute.iter().position(|c| c.kind == ComputeKind::Tensor && c.data_type == Some(Fp16)).map_or(compute.len(), |i| i + 1);
        compute.insert(after_fp16, fast);
    }
    if let Some(int32) = rates.int32 {
        compute.push(Ceiling::vector("INT32", ComputeKind::Int, peak(int32)));
    }
    let dram = match (d.memory_clock_hz, d.memory_bus_bits) {
        (Some(c), Some(bits)) if c.is_finite() && c > 0.0 && bits > 0 => {
            vec![MemoryLevel { name: "DRAM".into(), level: Level::Dram, bytes_per_s: dram_bytes_per_s(c, bits) }]
        }
        _ => vec![],
    };
    let mut source = format!("derived from the device's attributes ({sms} SMs × rates of {})", rates.arch);
    if !dram.is_empty() {
        source.push_str("; DRAM 2 × memory clock × bus width / 8");
    }
    let issue = rates.transaction_bytes.as_ref().map(|_| Issue {
        compute_units: sms,
        schedulers_per_unit: rates.schedulers_per_sm,
        inst_per_cycle_per_scheduler: 1.0,
        threads_per_warp: rates.warp_size,
    });
    Some(finish(Machine {
        id: format!("derived-{}-{sms}sm", rates.arch),
        name: d.name.clone().unwrap_or_else(|| format!("{} GPU, {sms} SMs", rates.arch)),
        vendor: Some(rates.vendor),
        arch: Some(rates.arch.into()),
        generation: Some(rates.generation.into()),
        sm_count: Some(sms),
        memory_bytes: d.memory_bytes,
        l2_bytes: d.l2_bytes,
        flops_per_tensor_inst: rates.flops_per_tensor_inst,
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        issue,
        transaction_bytes: rates.transaction_bytes.clone(),
        theoretical: set(&source, compute, dram),
        source,
        ..Default::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RTX 4090 of the `CudaProgramming` Nsight Compute report in `shared/samples/ncu-rep/`
    /// (device attributes as the ncurep decoder dumps them).
    fn rtx4090() -> Device {
        Device {
            name: Some("NVIDIA GeForce RTX 4090".into()),
            compute_capability: Some((8, 9)),
            sm_count: Some(128),
            max_sm_clock_hz: Some(2520e6),
            memory_clock_hz: Some(10501e6),
            memory_bus_bits: Some(384),
            l2_bytes: Some(75497472.0),
            memory_bytes: Some(25385107456.0),
            ..Device::default()
        }
    }

    fn tflops(m: &Machine, name: &str) -> f64 {
        m.compute.iter().find(|c| c.name == name).map_or(f64::NAN, |c| c.flops_per_s / 1e12)
    }

    #[test]
    fn every_arch_once_and_lookup_ignores_case() {
        for (i, r) in ARCHES.iter().enumerate() {
            assert!(ARCHES[..i].iter().all(|o| o.arch != r.arch), "{}", r.arch);
            assert!(r.matrix.first().is_none_or(|(t, _)| *t == Fp16), "{}: FP16 first, the tensor roof", r.arch);
            assert!(r.matrix_geforce.iter().all(|(t, g)| r.matrix.iter().any(|(m, f)| m == t && g < f)), "{}: overrides are slower", r.arch);
        }
        assert_eq!(arch_rates("SM_90").map(|r| r.generation), Some("Hopper"));
        assert_eq!(arch_rates("sm_90a").map(|r| r.arch), Some("sm_90"));
        assert_eq!(arch_rates("sm_100f").map(|r| r.arch), Some("sm_100"));
        assert_eq!(arch_rates("gfx90a:sramecc+:xnack-").map(|r| r.arch), Some("gfx90a"));
        assert_eq!(arch_rates("gfx90"), None);
        assert_eq!(arch_rates("sm_53"), None);
        // Volta alone has a fixed FLOPs per tensor instruction.
        let fixed: Vec<&str> = ARCHES.iter().filter(|r| r.flops_per_tensor_inst.is_some()).map(|r| r.arch).collect();
        assert_eq!(fixed, ["sm_70"]);
    }

    #[test]
    fn a_geforce_4090_from_its_attributes() {
        let m = derived_machine(&rtx4090()).expect("sm_89 has rates");
        assert_eq!(m.id, "derived-sm_89-128sm");
        assert_eq!(m.source, "derived from the device's attributes (128 SMs × rates of sm_89); DRAM 2 × memory clock × bus width / 8");
        // FP32: 128 SMs × 256 × 2.52 GHz = 82.57536 TFLOPS (the Ada whitepaper's 82.6).
        assert!((tflops(&m, "FP32") - 82.575_36).abs() < 1e-6);
        // FP64 at 1/64: 128 × 4 × 2.52 = 1.290 TFLOPS.
        assert!((tflops(&m, "FP64") - 1.29024).abs() < 1e-9);
        // FP16 matrix at GeForce's FP32-accumulate half rate: 128 × 512 × 2.52 = 165.2 TFLOPS
        // (whitepaper 165.2), then at FP16 accumulation 128 × 1024 × 2.52 = 330.3 (330.3);
        // BF16 at the half rate too: 165.2 (165.2).
        assert!((tflops(&m, "FP16 matrix") - 165.150_72).abs() < 1e-6);
        assert!((tflops(&m, "FP16 matrix (FP16 accumulate)") - 330.301_44).abs() < 1e-6);
        assert_eq!(m.matrix_ceiling(Fp16).map(|c| c.name.as_str()), Some("FP16 matrix"), "the FP32-accumulate rate is the FP16 roof");
        assert!((tflops(&m, "BF16 matrix") - 165.150_72).abs() < 1e-6);
        assert!((tflops(&m, "TF32 matrix") - 82.575_36).abs() < 1e-6);
        // DRAM: 2 × 10501 MHz × 384 / 8 = 1008.096 GB/s (data sheet 1008).
        assert_eq!(m.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(1008.096e9));
        assert_eq!(m.warp_inst_per_s(), Some(128.0 * 4.0 * 2520e6));
        assert_eq!((m.vendor, m.arch.as_deref(), m.sm_count, m.l2_bytes), (Some(Vendor::Nvidia), Some("sm_89"), Some(128), Some(75497472.0)));
        assert_eq!(m.flops_per_tensor_inst, None);
    }

    #[test]
    fn the_same_chip_not_geforce_keeps_full_rate_fp32_accumulation() {
        let mut l40 = rtx4090();
        l40.name = Some("NVIDIA RTX 6000 Ada Generation".into());
        let m = derived_machine(&l40).unwrap();
        assert!((tflops(&m, "BF16 matrix") - 330.301_44).abs() < 1e-6);
        assert!((tflops(&m, "FP16 matrix") - 330.301_44).abs() < 1e-6);
        assert!(m.compute.iter().all(|c| c.name != "FP16 matrix (FP16 accumulate)"), "one FP16 rate off GeForce");
    }

    #[test]
    fn nothing_without_arch_sms_or_clock() {
        let d = rtx4090();
        assert!(derived_machine(&Device { max_sm_clock_hz: None, ..d.clone() }).is_none());
        assert!(derived_machine(&Device { sm_count: None, ..d.clone() }).is_none());
        assert!(derived_machine(&Device { compute_capability: Some((5, 3)), ..d.clone() }).is_none());
        // No memory clock: no DRAM level, and the source says nothing of it.
        let m = derived_machine(&Device { memory_clock_hz: None, ..d }).unwrap();
        assert!(m.memory.is_empty() && !m.source.contains("DRAM"));
    }

    #[test]
    fn an_amd_device_has_no_issue_model_and_a_volta_one_has_hmma() {
        let mi210 = Device { arch: Some("gfx90a".into()), sm_count: Some(104), max_sm_clock_hz: Some(1700e6), ..Device::default() };
        let m = derived_machine(&mi210).unwrap();
        // 104 CUs × 128 × 1.7 GHz = 22.63 TFLOPS FP64 (data sheet 22.6); MFMA F16 104 × 1024 ×
        // 1.7 = 181.0 (181.0).
        assert!((tflops(&m, "FP64") - 22.6304).abs() < 1e-9);
        assert!((tflops(&m, "FP16 matrix") - 181.0432).abs() < 1e-9);
        assert_eq!((m.issue.is_none(), m.transaction_bytes.is_none(), m.shared_in_l1()), (true, true, false));
        assert_eq!(m.name, "gfx90a GPU, 104 SMs");
        let v100 = Device { compute_capability: Some((7, 0)), sm_count: Some(80), max_sm_clock_hz: Some(1530e6), ..Device::default() };
        let m = derived_machine(&v100).unwrap();
        assert_eq!(m.flops_per_tensor_inst, Some(512.0));
        // Ding & Williams: 80 × 4 × 1 × 1.53 GHz = 489.6 warp GIPS.
        assert!((m.warp_inst_per_s().unwrap() / 1e9 - 489.6).abs() < 1e-9);
    }
}
