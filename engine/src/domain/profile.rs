//! A kernel's measured totals and the quantities derived from them without a machine.

use crate::domain::counters::{Counter, Counters};
use crate::domain::data_type::DataType;
use serde::{Deserialize, Serialize};

/// One launch of a kernel as an importer read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Launch {
    /// The profiler's launch id (Nsight Compute `ID`, rocprof `Index`), used to join
    /// one-metric-per-file runs; `None` when the format has none.
    pub id: Option<u64>,
    /// The kernel's name as the profiler printed it, suffixes removed by the importer.
    pub kernel: String,
    /// How many launches this record stands for (nvprof metric tables give `Invocations`).
    pub count: u64,
    pub counters: Counters,
    /// Which of the file's devices ran it: an index into what the importer reports
    /// ([`crate::import::Imported::devices`], [`crate::import::stream::RecordParser::devices`]);
    /// `None` when the file does not say.
    #[serde(default)]
    pub device: Option<u16>,
}

/// A kernel: all launches of one name, counters summed (totals over launches, base units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelProfile {
    pub name: String,
    pub launches: u64,
    pub counters: Counters,
}

/// Floating-point precision of FLOPs and compute ceilings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Fp64,
    Fp32,
    Fp16,
}

impl KernelProfile {
    /// A kernel of one launch with these counters measured (examples and tests).
    pub fn from_counters(name: &str, pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile { name: name.into(), launches: 1, counters: Counters::from_pairs(pairs) }
    }

    /// A short name for charts (template arguments as `<…>`, no parameter list); the full
    /// name stays in [`KernelProfile::name`]. See [`crate::domain::names::display_name`].
    pub fn display_name(&self) -> String {
        crate::domain::names::display_name(&self.name)
    }

    /// Total time over launches, seconds: the measured duration wins; else Σ over launches of
    /// cycles / clock ([`Counter::CycleTimeS`]), as in the NERSC hierarchical-roofline recipe
    /// (Yang et al., roofline use cases: time = `sm__cycles_elapsed.avg` /
    /// `sm__cycles_elapsed.avg.per_second`, per launch); else Σcycles / mean clock where only
    /// totals are known.
    pub fn time_s(&self) -> Option<f64> {
        let c = &self.counters;
        c.get(Counter::TimeS).or_else(|| c.get(Counter::CycleTimeS)).or_else(|| match (c.get(Counter::Cycles), c.get(Counter::ClockHz)) {
            (Some(cycles), Some(hz)) if hz > 0.0 => Some(cycles / hz),
            _ => None,
        })
    }

    /// The L2 clock the kernel ran at, Hz ([`Counter::L2ClockHz`], Nsight Compute
    /// `lts__cycles_elapsed.avg.per_second`; the launch-weighted mean over its launches, as
    /// the SM clock [`Counter::ClockHz`]); `None` where the file does not measure it. The L2
    /// has its own clock domain, so a roof given per L2 cycle scales with this, not the SM
    /// clock.
    pub fn l2_clock_hz(&self) -> Option<f64> {
        self.counters.get(Counter::L2ClockHz)
    }

    /// Matrix work of one data type: FLOPs (operations for INT8), as counted.
    pub fn matrix_flops(&self, t: DataType) -> Option<f64> {
        self.counters.get(t.matrix_counter())
    }

    /// Whether any matrix work was counted per data type.
    pub fn has_typed_matrix_work(&self) -> bool {
        DataType::ALL.iter().any(|t| self.matrix_flops(*t).is_some())
    }

    /// Matrix FLOPs of every floating-point type counted (INT8 operations excluded).
    pub fn typed_matrix_flops(&self) -> Option<f64> {
        let mut any = false;
        let mut sum = 0.0;
        for t in DataType::ALL.into_iter().filter(|t| t.is_float()) {
            if let Some(v) = self.matrix_flops(t) {
                any = true;
                sum += v;
            }
        }
        any.then_some(sum)
    }

    /// Thread instructions for Ding & Williams' thread dots: non-predicated ones (Table I),
    /// else all thread instructions where only those were collected.
    pub fn thread_inst(&self) -> Option<f64> {
        self.counters.get(Counter::ThreadInstPredOn).or_else(|| self.counters.get(Counter::ThreadInst))
    }

    /// Global load/store warp instructions: counted instructions, else requests (one per warp
    /// instruction) — never both added.
    pub fn global_ldst_inst(&self) -> Option<f64> {
        self.counters.get(Counter::GlobalLdStInst).or_else(|| self.counters.get(Counter::GlobalLdStReq))
    }

    /// FLOPs of one precision: reported FLOPs if the profiler counted them, else
    /// add + mul + 2 × fma operations (NERSC / Nsight Compute roofline recipe). FP16 counts
    /// are lanes: an importer counts a packed HFMA2 thread instruction as 2 FMAs (4 FLOPs), as
    /// Nsight Compute's half-precision roofline does (`import::ncu_metrics`).
    pub fn flops(&self, p: Precision) -> Option<f64> {
        let c = &self.counters;
        let (direct, add, mul, fma) = match p {
            Precision::Fp64 => (Counter::Fp64Flops, Counter::Fp64Add, Counter::Fp64Mul, Counter::Fp64Fma),
            Precision::Fp32 => (Counter::Fp32Flops, Counter::Fp32Add, Counter::Fp32Mul, Counter::Fp32Fma),
            Precision::Fp16 => (Counter::Fp16Flops, Counter::Fp16Add, Counter::Fp16Mul, Counter::Fp16Fma),
        };
        if let Some(v) = c.get(direct) {
            return Some(v);
        }
        let parts = [c.get(add), c.get(mul), c.get(fma).map(|f| 2.0 * f)];
        if parts.iter().all(Option::is_none) {
            None
        } else {
            Some(parts.iter().flatten().sum())
        }
    }

    /// Matrix FLOPs of every kind: counted per data type, else reported without a type
    /// ([`Counter::TensorFlops`]), else tensor instructions × `flops_per_tensor_inst` (a
    /// property of the architecture: 512 for Volta's HMMA.884, per the NERSC recipe; unset
    /// where instructions of one pipe do different amounts of work).
    pub fn tensor_flops(&self, flops_per_tensor_inst: Option<f64>) -> Option<f64> {
        let c = &self.counters;
        self.typed_matrix_flops().or_else(|| c.get(Counter::TensorFlops)).or_else(|| Some(c.get(Counter::TensorInst)? * flops_per_tensor_inst?))
    }

    /// All FLOPs: every precision, tensor, and FLOPs of unknown precision. `None` when no
    /// FLOP counter of any kind was measured.
    pub fn total_flops(&self, flops_per_tensor_inst: Option<f64>) -> Option<f64> {
        let parts = [
            self.flops(Precision::Fp64),
            self.flops(Precision::Fp32),
            self.flops(Precision::Fp16),
            self.tensor_flops(flops_per_tensor_inst),
            self.counters.get(Counter::OtherFlops),
        ];
        if parts.iter().all(Option::is_none) {
            None
        } else {
            Some(parts.iter().flatten().sum())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile::from_counters("k", pairs)
    }

    #[test]
    fn flops_are_add_mul_and_twice_fma() {
        let k = kernel(&[(Counter::Fp32Add, 10.0), (Counter::Fp32Mul, 5.0), (Counter::Fp32Fma, 100.0)]);
        assert_eq!(k.flops(Precision::Fp32), Some(215.0));
        assert_eq!(k.flops(Precision::Fp64), None);
        assert_eq!(k.total_flops(None), Some(215.0));
    }

    #[test]
    fn tensor_flops_need_the_machine_factor() {
        let k = kernel(&[(Counter::TensorInst, 1000.0)]);
        assert_eq!(k.tensor_flops(None), None);
        assert_eq!(k.tensor_flops(Some(512.0)), Some(512_000.0));
    }

    #[test]
    fn typed_matrix_flops_win_and_int8_is_not_a_flop() {
        // 3e12 BF16 + 1e12 FP8 FLOPs; 5e12 INT8 ops are work, not FLOPs; the 1000 tensor
        // instructions are not converted again (that would count the same work twice).
        let k = kernel(&[(Counter::MatrixBf16, 3e12), (Counter::MatrixFp8, 1e12), (Counter::MatrixInt8, 5e12), (Counter::TensorInst, 1000.0)]);
        assert_eq!(k.typed_matrix_flops(), Some(4e12));
        assert_eq!(k.tensor_flops(Some(512.0)), Some(4e12));
        assert_eq!(k.total_flops(Some(512.0)), Some(4e12));
        assert_eq!(k.matrix_flops(DataType::Int8), Some(5e12));
        let only_int8 = kernel(&[(Counter::MatrixInt8, 5e12)]);
        assert_eq!(only_int8.typed_matrix_flops(), None);
    }

    #[test]
    fn predicated_on_thread_instructions_and_ldst_requests_are_fallbacks_not_sums() {
        let k = kernel(&[(Counter::ThreadInst, 3200.0), (Counter::ThreadInstPredOn, 1600.0), (Counter::GlobalLdStInst, 10.0), (Counter::GlobalLdStReq, 12.0)]);
        assert_eq!((k.thread_inst(), k.global_ldst_inst()), (Some(1600.0), Some(10.0)));
        let k = kernel(&[(Counter::ThreadInst, 3200.0), (Counter::GlobalLdStReq, 12.0)]);
        assert_eq!((k.thread_inst(), k.global_ldst_inst()), (Some(3200.0), Some(12.0)));
    }

    #[test]
    fn time_from_cycles_and_clock() {
        let k = kernel(&[(Counter::Cycles, 1.53e9), (Counter::ClockHz, 1.53e9)]);
        assert_eq!(k.time_s(), Some(1.0));
        let k = kernel(&[(Counter::TimeS, 0.5), (Counter::Cycles, 1.0), (Counter::ClockHz, 1.0)]);
        assert_eq!(k.time_s(), Some(0.5));
        // Two launches summed: 1e9 cycles at 1 GHz (1 s) and 1e9 at 2 GHz (0.5 s) = 1.5 s,
        // where Σcycles / mean clock would say 2e9 / 1.5e9 = 1.333 s.
        let k = kernel(&[(Counter::Cycles, 2e9), (Counter::ClockHz, 1.5e9), (Counter::CycleTimeS, 1.5)]);
        assert_eq!(k.time_s(), Some(1.5));
    }
}
