//! AMD ROCm profilers: rocprof v1/v2 dispatch tables (counter CSVs, `--stats` traces,
//! Omniperf / rocprof-compute `pmc_perf.csv` and per-counter files), the `--stats` summary,
//! rocprofv3 counter collection (long format), and rocprof-compute's machine files
//! (`roofline.csv`, `sysinfo.csv`).
//!
//! Counter arithmetic follows rocprof-compute's roofline and compute-pipeline panels
//! (`ROCm/rocprofiler-compute`: `src/utils/roofline_calc.py`, `calc_ai`, and
//! `src/rocprof_compute_soc/analysis_configs/gfx942/1100_compute-unit-compute-pipeline.yaml`,
//! "Arithmetic Operations" and "MFMA FLOPs (F8/BF16/F16/F32/F64)", "MFMA IOPs (INT8)"):
//!
//! * vector FLOPs per precision = 64 × (ADD + MUL + TRANS + 2 × FMA) of
//!   `SQ_INSTS_VALU_{ADD,MUL,TRANS,FMA}_F{16,32,64}` (the counters count wavefront
//!   instructions; rocprof-compute multiplies by 64 lanes: here the file's wave size, 64 on
//!   CDNA);
//! * matrix FLOPs per data type = 512 × `SQ_INSTS_VALU_MFMA_MOPS_<TYPE>`: ROCm's counter
//!   tables define each MOPS counter as "the performed math operations (add or mul) divided
//!   by 512, assuming a full EXEC mask" (MI300/MI350 performance counters), and
//!   rocprof-compute multiplies every one by 512. Types: `F16`, `BF16`, `F32`, `F64`, `I8`
//!   (integer operations, not FLOPs) on MI200 and later (MI100, gfx908, has no FLOP counters:
//!   rocprof-compute's gfx908 panels say "No perf counter"); `F8` (FP8 and BF8 inputs) on MI300
//!   (gfx942) and later; `XF32` (AMD's TF32) where the hardware has it. `F6F4` (MI350,
//!   gfx950) counts FP6 and FP4 work together: its type cannot be told, so it is read as
//!   matrix FLOPs of no type ([`Counter::TensorFlops`]);
//! * HBM bytes = 128 × `TCC_BUBBLE` + 64 × (`TCC_EA_RDREQ` − `TCC_BUBBLE` − `TCC_EA_RDREQ_32B`) +
//!   32 × `TCC_EA_RDREQ_32B` + 64 × `TCC_EA_WRREQ_64B` + 32 × (`TCC_EA_WRREQ` − `TCC_EA_WRREQ_64B`)
//!   (MI300 names them `TCC_EA0_*`; `TCC_BUBBLE` counts 128-byte reads there). Where the read
//!   sizes are counted (`TCC_EA0_RDREQ_64B`, `TCC_EA0_RDREQ_128B`, MI350), reads = 32 ×
//!   `RDREQ_32B` + 64 × `RDREQ_64B` + 128 × `RDREQ_128B` instead (`analysis_configs/gfx950/
//!   1700_l2_cache.yaml`, "L2-Fabric Read BW"). (The MI350 vcopy sample has neither those nor a
//!   non-zero `TCC_BUBBLE`: its 65,640 reads of an 8 MiB array cost 64 bytes each, 4.2 MB, as
//!   rocprof-compute's own gfx950 speed-of-light formula computes them.) Else rocprof's
//!   derived `FETCH_SIZE` + `WRITE_SIZE`, which are in KB of **1024** bytes.
//! * LDS bytes = 4 × 32 banks × (`SQ_LDS_IDX_ACTIVE` − `SQ_LDS_BANK_CONFLICT`).
//! * L1 bytes = bytes per access × `TCP_TOTAL_CACHE_ACCESSES`; L2 bytes (vL1D → L2) = bytes per
//!   read × `TCP_TCC_READ_REQ` + bytes per write × `TCP_TCC_{WRITE,ATOMIC_WITH_RET,
//!   ATOMIC_WITHOUT_RET}_REQ`. No counter gives the size of a vL1D access or of a vL1D → L2
//!   request, so the sizes are those rocprof-compute's own panels use per generation
//!   ([`Generation`]): CDNA 3 and 4 (gfx942, gfx950; their counters are named `TCC_EA0_*`, with
//!   `TCC_BUBBLE`): 128 bytes per access and per read, **64 per write and atomic**
//!   (`analysis_configs/gfx942/1600_vector_l1_data_cache.yaml` and `gfx950/…`, "vL1D-L2 BW":
//!   `128 * TCP_TCC_READ_REQ_sum + 64 * (TCP_TCC_WRITE_REQ_sum + …ATOMIC…)`; "vL1D Cache BW":
//!   `TCP_TOTAL_CACHE_ACCESSES_sum * 128`); CDNA 1 and 2 (gfx908, gfx90a; `TCC_EA_*`): 64 bytes
//!   each (`gfx90a/1600_vector_l1_data_cache.yaml`). The vcopy samples agree: 8 MiB written in
//!   131,072 `TCP_TCC_WRITE_REQ` = 64 bytes each, the same count as `TCC_EA0_WRREQ_64B`. Where
//!   the counters do not show the generation, 64 bytes is assumed and the file gets a warning.
//!
//! Per-channel counters (`TCC_EA_RDREQ[0]` … `[31]`) are summed; a `_sum` column, when present,
//! is used instead of the channels.
//!
//! Devices: rocprof's tables give only an index (`gpu-id`, `GPU_ID`, `Agent_Id`), read as
//! "GPU N"; rocprofv3's `agent_info.csv` describes GPU N ([`agent_info`]) and
//! rocprof-compute's `sysinfo.csv` the profiled GPU ([`sysinfo`]), which the dataset joins to
//! the index.

pub mod agent_info;
pub mod compute;
pub mod dispatch;
pub mod stats;
pub mod sysinfo;
pub mod v3;

use crate::domain::counters::Counter;
use crate::domain::DataType;
use crate::error::ImportError;
use crate::import::sink::CounterSink;
use crate::units::KIBI;

/// The raw AMD counters the roofline uses, in a fixed order (index into [`AmdAccum`]; the
/// `slot` constants below name the positions).
pub const RAW: [&str; 35] = [
    "SQ_INSTS_VALU_ADD_F16",
    "SQ_INSTS_VALU_MUL_F16",
    "SQ_INSTS_VALU_TRANS_F16",
    "SQ_INSTS_VALU_FMA_F16",
    "SQ_INSTS_VALU_ADD_F32",
    "SQ_INSTS_VALU_MUL_F32",
    "SQ_INSTS_VALU_TRANS_F32",
    "SQ_INSTS_VALU_FMA_F32",
    "SQ_INSTS_VALU_ADD_F64",
    "SQ_INSTS_VALU_MUL_F64",
    "SQ_INSTS_VALU_TRANS_F64",
    "SQ_INSTS_VALU_FMA_F64",
    "SQ_INSTS_VALU_MFMA_MOPS_F16",
    "SQ_INSTS_VALU_MFMA_MOPS_BF16",
    "SQ_INSTS_VALU_MFMA_MOPS_F32",
    "SQ_INSTS_VALU_MFMA_MOPS_F64",
    "SQ_INSTS_VALU_MFMA_MOPS_I8",
    "TCC_EA_RDREQ",
    "TCC_EA_RDREQ_32B",
    "TCC_EA_WRREQ",
    "TCC_EA_WRREQ_64B",
    "TCC_BUBBLE",
    "SQ_LDS_IDX_ACTIVE",
    "SQ_LDS_BANK_CONFLICT",
    "TCP_TOTAL_CACHE_ACCESSES",
    "TCP_TCC_READ_REQ",
    "TCP_TCC_WRITE_REQ",
    "TCP_TCC_ATOMIC_WITH_RET_REQ",
    "TCP_TCC_ATOMIC_WITHOUT_RET_REQ",
    "FETCH_SIZE",
    "SQ_INSTS_VALU_MFMA_MOPS_F8",
    "SQ_INSTS_VALU_MFMA_MOPS_XF32",
    "SQ_INSTS_VALU_MFMA_MOPS_F6F4",
    "TCC_EA_RDREQ_64B",
    "TCC_EA_RDREQ_128B",
];

/// Positions in [`RAW`].
mod slot {
    pub const VALU_F16: usize = 0; // ADD, MUL, TRANS, FMA follow in that order
    pub const VALU_F32: usize = 4;
    pub const VALU_F64: usize = 8;
    pub const MFMA_F16: usize = 12;
    pub const MFMA_BF16: usize = 13;
    pub const MFMA_F32: usize = 14;
    pub const MFMA_F64: usize = 15;
    pub const MFMA_I8: usize = 16;
    pub const EA_RDREQ: usize = 17;
    pub const EA_RDREQ_32B: usize = 18;
    pub const EA_WRREQ: usize = 19;
    pub const EA_WRREQ_64B: usize = 20;
    pub const BUBBLE: usize = 21;
    pub const LDS_ACTIVE: usize = 22;
    pub const LDS_CONFLICT: usize = 23;
    pub const TCP_ACCESSES: usize = 24;
    pub const TCP_TCC_REQ: [usize; 4] = [25, 26, 27, 28];
    pub const FETCH_SIZE: usize = 29;
    pub const MFMA_F8: usize = 30;
    pub const MFMA_XF32: usize = 31;
    pub const MFMA_F6F4: usize = 32;
    pub const EA_RDREQ_64B: usize = 33;
    pub const EA_RDREQ_128B: usize = 34;
}

/// `WRITE_SIZE` is kept apart from [`RAW`] only to keep that table's length readable.
pub const WRITE_SIZE: usize = RAW.len();
const SLOTS: usize = RAW.len() + 1;

/// Operations per count of every `SQ_INSTS_VALU_MFMA_MOPS_*` counter (module doc).
pub const MFMA_OPS_PER_MOP: f64 = 512.0;

/// The MFMA counters with a data type, and the type's matrix counter.
const MFMA_TYPED: [(usize, DataType); 7] = [
    (slot::MFMA_F64, DataType::Fp64),
    (slot::MFMA_XF32, DataType::Tf32),
    (slot::MFMA_F32, DataType::Fp32),
    (slot::MFMA_F16, DataType::Fp16),
    (slot::MFMA_BF16, DataType::Bf16),
    (slot::MFMA_F8, DataType::Fp8),
    (slot::MFMA_I8, DataType::Int8),
];

/// How a column name maps onto a raw counter: its slot and whether it is one channel
/// (`X[3]`) or the total (`X`, `X_sum`). Also tells whether the name is MI300 style (`TCC_EA0_`).
pub fn classify(column: &str) -> Option<(usize, bool, bool)> {
    let (base, channel) = match column.strip_suffix(']').and_then(|s| s.rsplit_once('[')) {
        Some((b, idx)) if idx.bytes().all(|c| c.is_ascii_digit()) => (b, true),
        _ => (column, false),
    };
    let base = base.strip_suffix("_sum").unwrap_or(base);
    let (base, mi300) = match base.strip_prefix("TCC_EA0_") {
        Some(rest) => (rest, true),
        None => (base, false),
    };
    let slot = if base == "WRITE_SIZE" {
        WRITE_SIZE
    } else {
        let full = if mi300 { format!("TCC_EA_{base}") } else { base.to_string() };
        RAW.iter().position(|r| *r == full)?
    };
    Some((slot, channel, mi300 || slot == slot::BUBBLE))
}

/// One dispatch's raw counters, channels summed, until they are turned into canonical counters.
#[derive(Clone, Debug)]
pub struct AmdAccum {
    total: [Option<f64>; SLOTS],
    channels: [Option<f64>; SLOTS],
    /// The generation the counter names show (bytes per L1 access and L2 request).
    pub generation: Generation,
}

impl Default for AmdAccum {
    fn default() -> Self {
        AmdAccum { total: [None; SLOTS], channels: [None; SLOTS], generation: Generation::Unknown }
    }
}

impl AmdAccum {
    /// Adds a value of a column classified by [`classify`].
    pub fn put(&mut self, slot: usize, channel: bool, value: f64) {
        let arr = if channel { &mut self.channels } else { &mut self.total };
        if let Some(v) = arr.get_mut(slot) {
            *v = Some(v.unwrap_or(0.0) + value);
        }
    }

    /// Adds a value by counter name (rocprofv3 long format).
    pub fn put_named(&mut self, name: &str, value: f64) {
        self.generation = self.generation.or(Generation::of(name));
        if let Some((slot, channel, _)) = classify(name) {
            self.put(slot, channel, value);
        }
    }

    fn get(&self, slot: usize) -> Option<f64> {
        self.total.get(slot).copied().flatten().or_else(|| self.channels.get(slot).copied().flatten())
    }

    fn sum(&self, slots: &[usize]) -> Option<f64> {
        let vals: Vec<f64> = slots.iter().filter_map(|&s| self.get(s)).collect();
        (!vals.is_empty()).then(|| vals.iter().sum())
    }

    /// Canonical counters, per rocprof-compute's roofline formulas (module doc), and whether a
    /// size per access had to be assumed.
    pub fn finish(&self, wave_size: f64, sink: &mut CounterSink) -> LineSizes {
        let g = |s: usize| self.get(s).unwrap_or(0.0);
        for (base, counter) in [(slot::VALU_F16, Counter::Fp16Flops), (slot::VALU_F32, Counter::Fp32Flops), (slot::VALU_F64, Counter::Fp64Flops)] {
            // ADD, MUL and FMA must all be measured: a file with only TRANS (a per-counter
            // file) would otherwise claim zero FLOPs.
            if [base, base + 1, base + 3].iter().all(|&s| self.get(s).is_some()) {
                let flops = wave_size * (g(base) + g(base + 1) + g(base + 2) + 2.0 * g(base + 3));
                sink.put(counter, false, flops);
            }
        }
        for (s, data_type) in MFMA_TYPED {
            if let Some(mops) = self.get(s) {
                sink.put(data_type.matrix_counter(), false, MFMA_OPS_PER_MOP * mops);
            }
        }
        if let Some(mops) = self.get(slot::MFMA_F6F4) {
            sink.put(Counter::TensorFlops, false, MFMA_OPS_PER_MOP * mops);
        }
        if self.get(slot::EA_RDREQ).is_some() || self.get(slot::EA_WRREQ).is_some() {
            let (rd, rd32, wr, wr64, bubble) = (g(slot::EA_RDREQ), g(slot::EA_RDREQ_32B), g(slot::EA_WRREQ), g(slot::EA_WRREQ_64B), g(slot::BUBBLE));
            let sized = self.get(slot::EA_RDREQ_64B).is_some() || self.get(slot::EA_RDREQ_128B).is_some();
            let read = if sized {
                rd32 * 32.0 + g(slot::EA_RDREQ_64B) * 64.0 + g(slot::EA_RDREQ_128B) * 128.0
            } else {
                bubble * 128.0 + (rd - bubble - rd32) * 64.0 + rd32 * 32.0
            };
            let write = wr64 * 64.0 + (wr - wr64) * 32.0;
            sink.put(Counter::DramBytes, false, read + write);
        } else if let Some(kb) = self.sum(&[slot::FETCH_SIZE, WRITE_SIZE]) {
            sink.put(Counter::DramBytes, false, kb * KIBI);
        }
        if self.get(slot::LDS_ACTIVE).is_some() {
            sink.put(Counter::SharedBytes, false, 4.0 * 32.0 * (g(slot::LDS_ACTIVE) - g(slot::LDS_CONFLICT)).max(0.0));
        }
        let sizes = self.generation.sizes();
        let mut assumed = false;
        if let Some(a) = self.get(slot::TCP_ACCESSES) {
            sink.put(Counter::L1Bytes, false, sizes.l1_access * a);
            assumed = sizes.assumed;
        }
        let [read, write, atomic_ret, atomic] = slot::TCP_TCC_REQ;
        if let Some(writes) = self.sum(&[write, atomic_ret, atomic]).or(self.get(read).map(|_| 0.0)) {
            sink.put(Counter::L2Bytes, false, sizes.l2_read * g(read) + sizes.l2_write * writes);
            assumed = sizes.assumed;
        }
        LineSizes { assumed }
    }
}

/// What [`AmdAccum::finish`] had to assume.
#[must_use]
pub struct LineSizes {
    /// L1 or L2 bytes were costed with an assumed size per access (the generation unknown).
    pub assumed: bool,
}

/// The CDNA generation a table's counter names show, which fixes the bytes of a vL1D access
/// and of a vL1D → L2 request (module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Generation {
    /// No counter named the generation.
    #[default]
    Unknown,
    /// CDNA 1 and 2 (MI100, MI200): `TCC_EA_*` counters.
    Cdna2,
    /// CDNA 3 and 4 (MI300, MI350): `TCC_EA0_*`, `TCC_BUBBLE`.
    Cdna3,
}

/// Bytes per vL1D access, per vL1D → L2 read and per write or atomic.
struct Sizes {
    l1_access: f64,
    l2_read: f64,
    l2_write: f64,
    assumed: bool,
}

impl Generation {
    /// The generation a column name shows, if any.
    pub fn of(column: &str) -> Generation {
        if column.starts_with("TCC_EA0_") || column.starts_with("TCC_BUBBLE") {
            Generation::Cdna3
        } else if column.starts_with("TCC_EA_") {
            Generation::Cdna2
        } else {
            Generation::Unknown
        }
    }

    /// The generation of a gfx target (`gfx942`), for files that name their GPU (rocprofv3's
    /// databases): CDNA 3 and 4 are gfx940–942 (MI300) and gfx950 (MI350), CDNA 1 and 2 gfx908
    /// (MI100) and gfx90a (MI200), as rocprof-compute's `analysis_configs/<gfx>/` name them.
    pub fn of_arch(gfx: &str) -> Generation {
        match gfx.trim() {
            "gfx940" | "gfx941" | "gfx942" | "gfx950" => Generation::Cdna3,
            "gfx908" | "gfx90a" => Generation::Cdna2,
            _ => Generation::Unknown,
        }
    }

    /// What two columns show together: CDNA 3 names (`TCC_EA0_*`) exist on CDNA 3 only, so
    /// they win over `TCC_EA_*` names (`Ord`: Unknown < Cdna2 < Cdna3).
    pub fn or(self, other: Generation) -> Generation {
        self.max(other)
    }

    fn sizes(self) -> Sizes {
        match self {
            Generation::Cdna3 => Sizes { l1_access: 128.0, l2_read: 128.0, l2_write: 64.0, assumed: false },
            Generation::Cdna2 => Sizes { l1_access: 64.0, l2_read: 64.0, l2_write: 64.0, assumed: false },
            Generation::Unknown => Sizes { l1_access: 64.0, l2_read: 64.0, l2_write: 64.0, assumed: true },
        }
    }
}

/// Counts the launches whose L1/L2 bytes used an assumed size, for one warning per file.
#[derive(Default)]
pub struct AssumedSizes {
    launches: usize,
}

impl AssumedSizes {
    pub fn note(&mut self, sizes: &LineSizes) {
        self.launches += usize::from(sizes.assumed);
    }

    /// The file's warning, if any launch's bytes were costed with an assumed size.
    pub fn warning(&self, file: &str) -> Option<ImportError> {
        (self.launches > 0).then(|| {
            ImportError::new(
                file,
                None,
                format!(
                    "L1/L2 bytes of {} launch(es) assume 64 bytes per vL1D access and per L2 request: the counters do not show the GPU generation (128-byte reads on MI300 and later; collect TCC_EA0_RDREQ or TCC_EA_RDREQ with them to tell)",
                    self.launches
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_classify() {
        assert_eq!(classify("TCC_EA_RDREQ[3]"), Some((17, true, false)));
        assert_eq!(classify("TCC_EA_RDREQ_sum"), Some((17, false, false)));
        assert_eq!(classify("TCC_EA0_WRREQ_64B[0]"), Some((20, true, true)));
        assert_eq!(classify("WRITE_SIZE"), Some((WRITE_SIZE, false, false)));
        assert_eq!(classify("TCP_TOTAL_CACHE_ACCESSES_sum"), Some((24, false, false)));
        assert_eq!(classify("TCC_EA_RDREQ_LEVEL[0]"), None);
    }

    #[test]
    fn hbm_bytes_formula() {
        let mut a = AmdAccum::default();
        a.put_named("TCC_EA_RDREQ[0]", 10.0);
        a.put_named("TCC_EA_RDREQ[1]", 10.0);
        a.put_named("TCC_EA_RDREQ_32B[0]", 4.0);
        a.put_named("TCC_EA_WRREQ[0]", 8.0);
        a.put_named("TCC_EA_WRREQ_64B[0]", 8.0);
        let mut s = CounterSink::default();
        let _ = a.finish(64.0, &mut s);
        // reads: 16 × 64 + 4 × 32; writes: 8 × 64
        assert_eq!(s.get(Counter::DramBytes), Some(16.0 * 64.0 + 128.0 + 512.0));
    }

    #[test]
    fn mfma_mops_are_typed_matrix_work() {
        let mut a = AmdAccum::default();
        a.put_named("SQ_INSTS_VALU_MFMA_MOPS_F64", 1000.0);
        a.put_named("SQ_INSTS_VALU_MFMA_MOPS_BF16", 2.0);
        a.put_named("SQ_INSTS_VALU_MFMA_MOPS_F8", 3.0);
        a.put_named("SQ_INSTS_VALU_MFMA_MOPS_I8", 4.0);
        a.put_named("SQ_INSTS_VALU_MFMA_MOPS_F6F4", 5.0);
        let mut s = CounterSink::default();
        let _ = a.finish(64.0, &mut s);
        // each MOPS count × 512 operations
        assert_eq!(s.get(Counter::MatrixFp64), Some(512_000.0));
        assert_eq!(s.get(Counter::MatrixBf16), Some(1024.0));
        assert_eq!(s.get(Counter::MatrixFp8), Some(1536.0));
        assert_eq!(s.get(Counter::MatrixInt8), Some(2048.0));
        assert_eq!(s.get(Counter::TensorFlops), Some(2560.0));
        assert_eq!((s.get(Counter::MatrixFp16), s.get(Counter::IntOps)), (None, None));
    }
}
