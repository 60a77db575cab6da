//! AMD ROCm profilers: rocprof v1/v2 dispatch tables (counter CSVs, `--stats` traces,
//! Omniperf / rocprof-compute `pmc_perf.csv` and per-counter files), the `--stats` summary,
//! rocprofv3 counter collection (long format), and rocprof-compute's machine files
//! (`roofline.csv`, `sysinfo.csv`).
//!
//! Counter arithmetic follows rocprof-compute's roofline (its `0400_roofline.yaml` panels):
//!
//! * FLOPs per precision = wave_size × (ADD + MUL + TRANS + 2 × FMA) of `SQ_INSTS_VALU_*_F{16,32,64}`;
//!   matrix FLOPs = 512 × `SQ_INSTS_VALU_MFMA_MOPS_{F16,BF16,F32,F64}`; 512 × `…_I8` are integer ops.
//! * HBM bytes = 128 × `TCC_BUBBLE` + 64 × (`TCC_EA_RDREQ` − `TCC_BUBBLE` − `TCC_EA_RDREQ_32B`) +
//!   32 × `TCC_EA_RDREQ_32B` + 64 × `TCC_EA_WRREQ_64B` + 32 × (`TCC_EA_WRREQ` − `TCC_EA_WRREQ_64B`)
//!   (MI300 names them `TCC_EA0_*`; `TCC_BUBBLE` counts 128-byte reads there). Else rocprof's
//!   derived `FETCH_SIZE` + `WRITE_SIZE`, which are in KB of **1024** bytes.
//! * LDS bytes = 4 × 32 banks × (`SQ_LDS_IDX_ACTIVE` − `SQ_LDS_BANK_CONFLICT`).
//! * L1 bytes = line × `TCP_TOTAL_CACHE_ACCESSES`; L2 bytes = line × `TCP_TCC_{READ,WRITE,
//!   ATOMIC_WITH_RET,ATOMIC_WITHOUT_RET}_REQ`; line = 64 bytes (MI200), 128 (MI300, recognised by
//!   its `TCC_EA0_`/`TCC_BUBBLE` counters).
//!
//! Per-channel counters (`TCC_EA_RDREQ[0]` … `[31]`) are summed; a `_sum` column, when present,
//! is used instead of the channels.

pub mod compute;
pub mod dispatch;
pub mod stats;
pub mod v3;

use crate::domain::counters::Counter;
use crate::import::sink::CounterSink;
use crate::units::KIBI;

/// The raw AMD counters the roofline uses, in a fixed order (index into [`AmdAccum`]).
pub const RAW: [&str; 30] = [
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
];
/// `WRITE_SIZE` is kept apart from [`RAW`] only to keep that table's length readable.
pub const WRITE_SIZE: usize = RAW.len();
const SLOTS: usize = RAW.len() + 1;

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
    Some((slot, channel, mi300 || slot == 21))
}

/// One dispatch's raw counters, channels summed, until they are turned into canonical counters.
#[derive(Clone, Debug)]
pub struct AmdAccum {
    total: [Option<f64>; SLOTS],
    channels: [Option<f64>; SLOTS],
    /// MI300-style counters were seen: cache lines are 128 bytes.
    pub mi300: bool,
}

impl Default for AmdAccum {
    fn default() -> Self {
        AmdAccum { total: [None; SLOTS], channels: [None; SLOTS], mi300: false }
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
        if let Some((slot, channel, mi300)) = classify(name) {
            self.mi300 |= mi300;
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

    /// Canonical counters, per rocprof-compute's roofline formulas (module doc).
    pub fn finish(&self, wave_size: f64, sink: &mut CounterSink) {
        let g = |s: usize| self.get(s).unwrap_or(0.0);
        for (base, counter) in [(0, Counter::Fp16Flops), (4, Counter::Fp32Flops), (8, Counter::Fp64Flops)] {
            // ADD, MUL and FMA must all be measured: a file with only TRANS (a per-counter
            // file) would otherwise claim zero FLOPs.
            if [base, base + 1, base + 3].iter().all(|&s| self.get(s).is_some()) {
                let flops = wave_size * (g(base) + g(base + 1) + g(base + 2) + 2.0 * g(base + 3));
                sink.put(counter, false, flops);
            }
        }
        if let Some(mops) = self.sum(&[12, 13, 14, 15]) {
            sink.put(Counter::TensorFlops, false, 512.0 * mops);
        }
        if let Some(i8) = self.get(16) {
            sink.put(Counter::IntOps, false, 512.0 * i8);
        }
        if self.get(17).is_some() || self.get(19).is_some() {
            let (rd, rd32, wr, wr64, bubble) = (g(17), g(18), g(19), g(20), g(21));
            let read = bubble * 128.0 + (rd - bubble - rd32) * 64.0 + rd32 * 32.0;
            let write = wr64 * 64.0 + (wr - wr64) * 32.0;
            sink.put(Counter::DramBytes, false, read + write);
        } else if let Some(kb) = self.sum(&[29, WRITE_SIZE]) {
            sink.put(Counter::DramBytes, false, kb * KIBI);
        }
        if self.get(22).is_some() {
            sink.put(Counter::SharedBytes, false, 4.0 * 32.0 * (g(22) - g(23)).max(0.0));
        }
        let line = if self.mi300 { 128.0 } else { 64.0 };
        if let Some(a) = self.get(24) {
            sink.put(Counter::L1Bytes, false, line * a);
        }
        if let Some(req) = self.sum(&[25, 26, 27, 28]) {
            sink.put(Counter::L2Bytes, false, line * req);
        }
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
        a.finish(64.0, &mut s);
        // reads: 16 × 64 + 4 × 32; writes: 8 × 64
        assert_eq!(s.get(Counter::DramBytes), Some(16.0 * 64.0 + 128.0 + 512.0));
    }
}
