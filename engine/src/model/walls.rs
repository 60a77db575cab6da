//! Memory walls of the Instruction Roofline (Ding & Williams 2019, §III-A and Figs. 3–4):
//! vertical lines at the LD/ST instruction intensities of typical access patterns.
//!
//! Global: "1 and 1/32 warp-level global loads per global transaction" for stride-0 and for
//! random access or "striding by over 32 bytes ("stride-8" if FP32/INT32 and "stride-4" if
//! FP64)"; unit stride ("stride-1") gives "1/8 (FP64) and 1/4 (FP32, INT32)". The walls
//! carry the paper's names. Shared: "1 and 1/32 warp-level shared loads per shared transaction"
//! for no bank conflict and a 32-way bank conflict. Each wall rises to the ceiling that
//! bounds it: L1 GTXN/s × intensity for global walls, shared GTXN/s × intensity for shared
//! walls, and never above the peak warp GIPS.

use super::machine::{Level, Machine};
use crate::domain::counters::Counter;
use crate::domain::profile::KernelProfile;
use serde::Serialize;

/// Which LD/ST instructions a wall or dot is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WallMemory {
    Global,
    Shared,
}

/// A memory wall: a vertical line at an LD/ST intensity, up to `cap_inst_per_s`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wall {
    pub name: String,
    pub memory: WallMemory,
    /// LD/ST warp instructions per transaction.
    pub inst_per_txn: f64,
    /// Top of the wall: min(peak warp GIPS, GTXN/s × intensity); `null` if the machine lacks
    /// the ceilings.
    pub cap_inst_per_s: Option<f64>,
}

/// The global-memory walls: stride-0 = 1, stride-1 (unit stride) of 32-bit words = 1/4, of
/// 64-bit words = 1/8, and stride-8 (32-bit) / stride-4 (64-bit) = 1/32: every thread its own
/// 32-byte sector (Ding & Williams §III-A).
pub const GLOBAL_WALLS: [(&str, f64); 4] = [
    ("stride-0", 1.0),
    ("stride-1 (32-bit words)", 0.25),
    ("stride-1 (64-bit words)", 0.125),
    ("stride-8 (32-bit) / stride-4 (64-bit)", 1.0 / 32.0),
];

/// The shared-memory walls: no bank conflict = 1, 32-way bank conflict = 1/32.
pub const SHARED_WALLS: [(&str, f64); 2] = [("no bank conflict", 1.0), ("32-way bank conflict", 1.0 / 32.0)];

fn cap(m: &Machine, level: Level, x: f64) -> Option<f64> {
    let by_bw = m.txn_per_s(level)? * x;
    Some(m.warp_inst_per_s().map_or(by_bw, |peak| by_bw.min(peak)))
}

/// Every wall of a machine (the caps need its issue model and bandwidths).
pub fn walls(m: &Machine) -> Vec<Wall> {
    let global = GLOBAL_WALLS.iter().map(|&(name, x)| Wall { name: name.into(), memory: WallMemory::Global, inst_per_txn: x, cap_inst_per_s: cap(m, Level::L1, x) });
    let shared = SHARED_WALLS.iter().map(|&(name, x)| Wall { name: name.into(), memory: WallMemory::Shared, inst_per_txn: x, cap_inst_per_s: cap(m, Level::Shared, x) });
    global.chain(shared).collect()
}

/// A kernel's LD/ST dot: LD/ST warp instructions per transaction, and per second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LdStPoint {
    pub memory: WallMemory,
    pub inst_per_txn: f64,
    /// `null` without a time.
    pub inst_per_s: Option<f64>,
}

/// The global LD/ST dot: global LD/ST warp instructions (`smsp__inst_executed_op_global_*`,
/// else requests, never both: [`KernelProfile::global_ldst_inst`]) / global transactions.
pub fn global_ldst(k: &KernelProfile) -> Option<LdStPoint> {
    ldst(k, WallMemory::Global, k.global_ldst_inst(), k.counters.get(Counter::GlobalTxn))
}

/// The shared LD/ST dot: shared LD/ST warp instructions / shared transactions.
pub fn shared_ldst(k: &KernelProfile) -> Option<LdStPoint> {
    ldst(k, WallMemory::Shared, k.counters.get(Counter::SharedLdStInst), k.counters.get(Counter::SharedTxn))
}

fn ldst(k: &KernelProfile, memory: WallMemory, inst: Option<f64>, txn: Option<f64>) -> Option<LdStPoint> {
    let (i, t) = (inst?, txn?);
    if !(i > 0.0 && t > 0.0) {
        return None;
    }
    let inst_per_s = k.time_s().filter(|s| *s > 0.0).map(|s| i / s);
    Some(LdStPoint { memory, inst_per_txn: i / t, inst_per_s })
}

/// Plain words for a global access pattern from its intensity. Sectors per LD/ST
/// instruction is 1/intensity: a warp's unit-stride load touches 32 threads × the access
/// width, so 4 sectors for 32-bit words, 8 for 64-bit words and 16 for 128-bit vector loads
/// (`float4`, `double2`) — all unit stride, not strided; 32 (every thread its own sector) is
/// the paper's stride-8 (32-bit) / stride-4 (64-bit) wall. Below 2 reads as stride-0
/// (broadcast); up to 16 (with 10% for the odd partial sector) as unit stride; above that as
/// strided or gathered.
pub fn describe_global(inst_per_txn: f64) -> String {
    let per = 1.0 / inst_per_txn;
    let pattern = if per < 2.0 {
        "stride-0 (broadcast) global access"
    } else if per <= 16.0 * 1.1 {
        if per > 8.0 * 1.1 {
            "unit-stride global access with 128-bit (vector) loads"
        } else {
            "unit-stride global access"
        }
    } else if per >= 32.0 * 0.9 {
        "strided global access at the stride-8 (32-bit) / stride-4 (64-bit) wall: every thread its own sector"
    } else {
        "partly strided or gathered global access"
    };
    format!("{pattern} ({per:.1} sectors per LD/ST)")
}

/// Plain words for shared-memory wavefronts per LD/ST instruction, where the hardware's bank
/// conflict counts are not in the profile. Wavefronts beyond one are not conflicts by
/// themselves: a warp's conflict-free 64-bit (128-bit) shared load moves 256 (512) bytes, 2
/// (4) wavefronts of 128 bytes, and `ldmatrix.x4` 4 (issue 42: those were called 2- to 4-way
/// conflicts, loads and stores averaged together). One wavefront per instruction leaves no
/// room for a conflict.
pub fn describe_shared(inst_per_txn: f64) -> String {
    let per = 1.0 / inst_per_txn;
    if per < 1.05 {
        format!("no shared-memory bank conflicts ({per:.1} wavefronts per shared LD/ST)")
    } else {
        format!("{per:.1} wavefronts per shared LD/ST (wide accesses or bank conflicts; the bank conflicts were not counted)")
    }
}

/// Plain words for the shared-memory bank conflicts the hardware counted
/// ([`Counter::SharedLdBankConflicts`], [`Counter::SharedStBankConflicts`]: Nsight Compute's
/// `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum`, nvprof's
/// `shared_{ld,st}_bank_conflict`), loads and stores apart, with their share of the shared
/// wavefronts where those were counted; `None` where neither was counted.
pub fn describe_bank_conflicts(k: &KernelProfile) -> Option<String> {
    let c = &k.counters;
    let (ld, st) = (c.get(Counter::SharedLdBankConflicts), c.get(Counter::SharedStBankConflicts));
    if ld.is_none() && st.is_none() {
        return None;
    }
    let total = ld.unwrap_or(0.0) + st.unwrap_or(0.0);
    if total <= 0.0 {
        return Some("no shared-memory bank conflicts (counted)".into());
    }
    let side = |v: Option<f64>, what: &str| v.map(|v| format!("{} on {what}", count_words(v)));
    let sides: Vec<String> = [side(ld, "loads"), side(st, "stores")].into_iter().flatten().collect();
    let share = c.get(Counter::SharedTxn).filter(|w| *w > 0.0).map(|w| format!(" ({:.0}% of shared wavefronts)", 100.0 * total / w)).unwrap_or_default();
    Some(format!("shared-memory bank conflicts: {}{share}", sides.join(", ")))
}

/// What a kernel's shared-memory accesses say: the counted bank conflicts where the profile
/// has them, else the wavefronts per LD/ST ([`describe_shared`]); `None` without either.
pub fn describe_shared_access(k: &KernelProfile) -> Option<String> {
    describe_bank_conflicts(k).or_else(|| shared_ldst(k).map(|p| describe_shared(p.inst_per_txn)))
}

/// A count in short words: 950, 12.3 k, 4.5 M, 7.8 G.
fn count_words(v: f64) -> String {
    match v {
        v if v < 1e3 => format!("{v:.0}"),
        v if v < 1e6 => format!("{:.1} k", v / 1e3),
        v if v < 1e9 => format!("{:.1} M", v / 1e6),
        v => format!("{:.1} G", v / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions() {
        assert!(describe_global(0.25).starts_with("unit-stride"));
        assert!(describe_global(0.125).starts_with("unit-stride"));
        assert!(describe_global(1.0).starts_with("stride-0"));
        assert!(describe_global(1.0 / 32.0).starts_with("strided global access at the stride-8 (32-bit) / stride-4 (64-bit) wall"));
        // A warp of 128-bit loads: 32 × 16 bytes = 512 bytes = 16 sectors, unit stride.
        assert_eq!(describe_global(1.0 / 16.0), "unit-stride global access with 128-bit (vector) loads (16.0 sectors per LD/ST)");
        assert!(describe_global(1.0 / 24.0).starts_with("partly strided"));
        // One wavefront per shared LD/ST: no conflict. Sixteen: wide accesses or conflicts,
        // not "16-way conflicts" (issue 42: a conflict-free 128-bit load takes 4), where the
        // profile has no conflict counts.
        assert_eq!(describe_shared(1.0), "no shared-memory bank conflicts (1.0 wavefronts per shared LD/ST)");
        assert_eq!(describe_shared(1.0 / 16.0), "16.0 wavefronts per shared LD/ST (wide accesses or bank conflicts; the bank conflicts were not counted)");
    }

    #[test]
    fn counted_bank_conflicts_win_over_wavefronts() {
        use crate::domain::counters::Counters;
        let k = |pairs: &[(Counter, f64)]| KernelProfile { name: "k".into(), launches: 1, counters: Counters::from_pairs(pairs) };
        // A conflict-free 128-bit shared-load kernel: 1000 LD, 4000 wavefronts, 0 conflicts
        // counted. Not a 4-way conflict.
        let wide = k(&[(Counter::SharedLdStInst, 1000.0), (Counter::SharedTxn, 4000.0), (Counter::SharedLdBankConflicts, 0.0), (Counter::SharedStBankConflicts, 0.0)]);
        assert_eq!(describe_shared_access(&wide).as_deref(), Some("no shared-memory bank conflicts (counted)"));
        // The same without conflict counts: wavefronts, not conflicts.
        let uncounted = k(&[(Counter::SharedLdStInst, 1000.0), (Counter::SharedTxn, 4000.0)]);
        assert_eq!(describe_shared_access(&uncounted).as_deref(), Some("4.0 wavefronts per shared LD/ST (wide accesses or bank conflicts; the bank conflicts were not counted)"));
        // A transpose with 31 extra wavefronts per load on 1000 loads and none on stores:
        // 31000 of 33000 wavefronts (31000 + 1000 loads + 1000 stores) = 94%.
        let transpose = k(&[(Counter::SharedLdStInst, 2000.0), (Counter::SharedTxn, 33000.0), (Counter::SharedLdBankConflicts, 31000.0), (Counter::SharedStBankConflicts, 0.0)]);
        assert_eq!(describe_shared_access(&transpose).as_deref(), Some("shared-memory bank conflicts: 31.0 k on loads, 0 on stores (94% of shared wavefronts)"));
    }
}
