//! The data types matrix (tensor) units work on, each with its own roof.
//!
//! A matrix multiply in BF16 and one in FP64 run on different paths of the same unit at
//! rates that differ by 10–60×, so one "tensor" roof judges most of them wrongly: Nsight
//! Compute's tensor roofline draws one roof per data-type path
//! (`SpeedOfLight_HierarchicalTensorRooflineChart`: "DRAM Roofline (Src:bf16 Dst:fp32)",
//! "(Src:fp64)", …), rocprof-compute counts MFMA work per type
//! (`SQ_INSTS_VALU_MFMA_MOPS_{F16,BF16,F32,F64,I8}`). docs/MODEL.md has the table of
//! counters per vendor and which roof judges which work.

use super::counters::Counter;
use serde::{Deserialize, Serialize};

/// A matrix unit's input data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DataType {
    Fp64,
    /// NVIDIA TF32 (19-bit inputs, FP32 accumulate), AMD XF32.
    Tf32,
    /// Full FP32 inputs (AMD MFMA F32).
    Fp32,
    Fp16,
    Bf16,
    /// E4M3 / E5M2.
    Fp8,
    /// E2M3 / E3M2 (Blackwell, MI355X).
    Fp6,
    /// E2M1 (Blackwell, MI355X).
    Fp4,
    /// Integer operations, not FLOPs.
    Int8,
}

impl DataType {
    /// Widest first: the order tables and charts list them in.
    pub const ALL: [DataType; 9] =
        [DataType::Fp64, DataType::Tf32, DataType::Fp32, DataType::Fp16, DataType::Bf16, DataType::Fp8, DataType::Fp6, DataType::Fp4, DataType::Int8];

    /// "BF16": how ceilings and bounds name it ("BF16 matrix").
    pub fn label(self) -> &'static str {
        match self {
            DataType::Fp64 => "FP64",
            DataType::Tf32 => "TF32",
            DataType::Fp32 => "FP32",
            DataType::Fp16 => "FP16",
            DataType::Bf16 => "BF16",
            DataType::Fp8 => "FP8",
            DataType::Fp6 => "FP6",
            DataType::Fp4 => "FP4",
            DataType::Int8 => "INT8",
        }
    }

    /// "bf16": the serde name, in JSON and links.
    pub fn id(self) -> &'static str {
        match self {
            DataType::Fp64 => "fp64",
            DataType::Tf32 => "tf32",
            DataType::Fp32 => "fp32",
            DataType::Fp16 => "fp16",
            DataType::Bf16 => "bf16",
            DataType::Fp8 => "fp8",
            DataType::Fp6 => "fp6",
            DataType::Fp4 => "fp4",
            DataType::Int8 => "int8",
        }
    }

    pub fn from_id(id: &str) -> Option<DataType> {
        DataType::ALL.into_iter().find(|d| d.id().eq_ignore_ascii_case(id))
    }

    /// The counter of this type's matrix work ([`Counter::MatrixFp64`] …).
    pub fn matrix_counter(self) -> Counter {
        match self {
            DataType::Fp64 => Counter::MatrixFp64,
            DataType::Tf32 => Counter::MatrixTf32,
            DataType::Fp32 => Counter::MatrixFp32,
            DataType::Fp16 => Counter::MatrixFp16,
            DataType::Bf16 => Counter::MatrixBf16,
            DataType::Fp8 => Counter::MatrixFp8,
            DataType::Fp6 => Counter::MatrixFp6,
            DataType::Fp4 => Counter::MatrixFp4,
            DataType::Int8 => Counter::MatrixInt8,
        }
    }

    /// Whether the work counts floating-point operations (INT8 counts integer ones: it is
    /// judged against its roof but is not part of a kernel's FLOPs).
    pub fn is_float(self) -> bool {
        self != DataType::Int8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_counters_are_distinct() {
        for (i, d) in DataType::ALL.iter().enumerate() {
            assert_eq!(DataType::from_id(d.id()), Some(*d));
            assert!(DataType::ALL[..i].iter().all(|o| o.matrix_counter() != d.matrix_counter()));
        }
        assert_eq!(DataType::from_id("BF16"), Some(DataType::Bf16));
        assert_eq!(DataType::from_id("fp128"), None);
    }
}
