//! The numbers links use for counters, compute kinds and memory levels.
//!
//! They are part of the v1 format, frozen forever (docs/SHARING.md lists them): a code is never
//! reused nor renumbered, whatever happens to the Rust enums (their declaration order is not
//! the code). A new counter takes the next free code; v1 readers skip codes they do not know,
//! so a link from a newer build still opens with the counters the older build has.

use crate::domain::counters::Counter;
use crate::domain::DataType;
use crate::model::{Ceiling, ComputeKind, Level};

/// A counter's code in links (0–255; a link uses at most 64 distinct ones).
pub fn counter_code(c: Counter) -> u8 {
    match c {
        Counter::TimeS => 0,
        Counter::Cycles => 1,
        Counter::ClockHz => 2,
        Counter::Fp64Add => 3,
        Counter::Fp64Mul => 4,
        Counter::Fp64Fma => 5,
        Counter::Fp32Add => 6,
        Counter::Fp32Mul => 7,
        Counter::Fp32Fma => 8,
        Counter::Fp16Add => 9,
        Counter::Fp16Mul => 10,
        Counter::Fp16Fma => 11,
        Counter::Fp64Flops => 12,
        Counter::Fp32Flops => 13,
        Counter::Fp16Flops => 14,
        Counter::OtherFlops => 15,
        Counter::IntOps => 16,
        Counter::TensorInst => 17,
        Counter::TensorFlops => 18,
        Counter::L1Bytes => 19,
        Counter::L2Bytes => 20,
        Counter::DramBytes => 21,
        Counter::SharedBytes => 22,
        Counter::WarpInst => 23,
        Counter::ThreadInst => 24,
        Counter::GlobalTxn => 25,
        Counter::LocalTxn => 26,
        Counter::SharedTxn => 27,
        Counter::L2Txn => 28,
        Counter::DramTxn => 29,
        Counter::GlobalLdStInst => 30,
        Counter::SharedLdStInst => 31,
        Counter::CycleTimeS => 32,
        Counter::ThreadInstPredOn => 33,
        Counter::GlobalLdStReq => 34,
        Counter::MatrixFp64 => 35,
        Counter::MatrixTf32 => 36,
        Counter::MatrixFp32 => 37,
        Counter::MatrixFp16 => 38,
        Counter::MatrixBf16 => 39,
        Counter::MatrixFp8 => 40,
        Counter::MatrixFp6 => 41,
        Counter::MatrixFp4 => 42,
        Counter::MatrixInt8 => 43,
        Counter::L3Bytes => 44,
        Counter::MatrixSyncOps => 45,
        Counter::L2ClockHz => 46,
        Counter::SharedLdBankConflicts => 47,
        Counter::SharedStBankConflicts => 48,
    }
}

/// The counter of a code; `None` for a code this build does not know (skipped on read).
pub fn counter_of(code: u8) -> Option<Counter> {
    Counter::ALL.into_iter().find(|&c| counter_code(c) == code)
}

pub fn kind_code(k: ComputeKind) -> u8 {
    match k {
        ComputeKind::Fp64 => 0,
        ComputeKind::Fp32 => 1,
        ComputeKind::Fp16 => 2,
        ComputeKind::Tensor => 3,
        ComputeKind::Int => 4,
    }
}

/// A data type's code in links (frozen like the others).
pub fn data_type_code(d: DataType) -> u8 {
    match d {
        DataType::Fp64 => 0,
        DataType::Tf32 => 1,
        DataType::Fp32 => 2,
        DataType::Fp16 => 3,
        DataType::Bf16 => 4,
        DataType::Fp8 => 5,
        DataType::Fp6 => 6,
        DataType::Fp4 => 7,
        DataType::Int8 => 8,
    }
}

pub fn data_type_of(code: u8) -> Option<DataType> {
    DataType::ALL.into_iter().find(|&d| data_type_code(d) == code)
}

/// A ceiling's kind and data type in one byte: the kind's code, plus (data type code + 1) × 8
/// where the data type is not the one the kind implies ([`Ceiling::vector`]), so that a
/// machine without typed matrix ceilings writes the same bytes as before data types existed
/// (and older readers refuse a typed one as "unknown to this version").
pub fn ceiling_code(kind: ComputeKind, data_type: Option<DataType>) -> u8 {
    let implied = Ceiling::vector("", kind, 0.0).data_type;
    match data_type {
        Some(d) if Some(d) != implied => kind_code(kind) | ((data_type_code(d) + 1) << 3),
        _ => kind_code(kind),
    }
}

/// The kind and data type of a [`ceiling_code`]; `None` for codes this build does not know.
pub fn ceiling_of(code: u8) -> Option<(ComputeKind, Option<DataType>)> {
    let kind = kind_of(code & 7)?;
    let data_type = match code >> 3 {
        0 => Ceiling::vector("", kind, 0.0).data_type,
        d => Some(data_type_of(d - 1)?),
    };
    Some((kind, data_type))
}

pub fn kind_of(code: u8) -> Option<ComputeKind> {
    [ComputeKind::Fp64, ComputeKind::Fp32, ComputeKind::Fp16, ComputeKind::Tensor, ComputeKind::Int].into_iter().find(|&k| kind_code(k) == code)
}

pub fn level_code(l: Level) -> u8 {
    match l {
        Level::L1 => 0,
        Level::Shared => 1,
        Level::L2 => 2,
        Level::L3 => 3,
        Level::Dram => 4,
    }
}

pub fn level_of(code: u8) -> Option<Level> {
    Level::ALL.into_iter().find(|&l| level_code(l) == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceiling_codes_keep_old_bytes_and_round_trip_types() {
        // A vector FP64 ceiling and an untyped tensor one: the v1 codes 0 and 3.
        assert_eq!(ceiling_code(ComputeKind::Fp64, Some(DataType::Fp64)), 0);
        assert_eq!(ceiling_code(ComputeKind::Tensor, None), 3);
        // A BF16 matrix ceiling: 3 | (4 + 1) × 8 = 43.
        assert_eq!(ceiling_code(ComputeKind::Tensor, Some(DataType::Bf16)), 43);
        for d in DataType::ALL {
            let code = ceiling_code(ComputeKind::Tensor, Some(d));
            assert_eq!(ceiling_of(code), Some((ComputeKind::Tensor, Some(d))));
        }
        assert_eq!(ceiling_of(0), Some((ComputeKind::Fp64, Some(DataType::Fp64))));
        assert_eq!(ceiling_of(5), None);
        assert_eq!(ceiling_of(3 | (10 << 3)), None);
    }

    /// The frozen table, spelled out: if this test fails, a code changed and every link made
    /// so far would open with the wrong counters. Add new counters at the end instead.
    #[test]
    fn counter_codes_are_frozen() {
        let frozen: [(&str, u8); 49] = [
            ("time_s", 0),
            ("cycles", 1),
            ("clock_hz", 2),
            ("fp64_add", 3),
            ("fp64_mul", 4),
            ("fp64_fma", 5),
            ("fp32_add", 6),
            ("fp32_mul", 7),
            ("fp32_fma", 8),
            ("fp16_add", 9),
            ("fp16_mul", 10),
            ("fp16_fma", 11),
            ("flops_fp64", 12),
            ("flops_fp32", 13),
            ("flops_fp16", 14),
            ("flops", 15),
            ("int_ops", 16),
            ("tensor_inst", 17),
            ("flops_tensor", 18),
            ("bytes_l1", 19),
            ("bytes_l2", 20),
            ("bytes_dram", 21),
            ("bytes_shared", 22),
            ("warp_inst", 23),
            ("thread_inst", 24),
            ("global_txn", 25),
            ("local_txn", 26),
            ("shared_txn", 27),
            ("l2_txn", 28),
            ("dram_txn", 29),
            ("global_ldst_inst", 30),
            ("shared_ldst_inst", 31),
            ("cycle_time_s", 32),
            ("thread_inst_pred_on", 33),
            ("global_ldst_req", 34),
            ("flops_matrix_fp64", 35),
            ("flops_matrix_tf32", 36),
            ("flops_matrix_fp32", 37),
            ("flops_matrix_fp16", 38),
            ("flops_matrix_bf16", 39),
            ("flops_matrix_fp8", 40),
            ("flops_matrix_fp6", 41),
            ("flops_matrix_fp4", 42),
            ("ops_matrix_int8", 43),
            ("bytes_l3", 44),
            ("ops_matrix_mma_sync", 45),
            ("l2_clock_hz", 46),
            ("shared_ld_bank_conflicts", 47),
            ("shared_st_bank_conflicts", 48),
        ];
        for (key, code) in frozen {
            let c = Counter::from_key(key);
            assert_eq!(c.map(counter_code), Some(code), "{key}");
            assert_eq!(counter_of(code), c);
        }
        let mut codes: Vec<u8> = Counter::ALL.iter().map(|&c| counter_code(c)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Counter::ALL.len(), "every counter has its own code");
        assert_eq!(counter_of(200), None);
    }

    #[test]
    fn kind_and_level_codes_round_trip() {
        for code in 0..=4 {
            assert_eq!(kind_of(code).map(kind_code), Some(code));
            assert_eq!(level_of(code).map(level_code), Some(code));
        }
        assert_eq!(kind_of(5), None);
        assert_eq!(level_of(5), None);
        assert_eq!(level_code(Level::Dram), 4);
        assert_eq!(kind_code(ComputeKind::Tensor), 3);
    }
}
