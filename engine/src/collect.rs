//! "How to collect": the exact profiler command lines that produce what each chart mode needs,
//! in the formats the importers read. Metric sets come from the references:
//! the NERSC hierarchical recipe (Yang et al., `roofline-use-cases-berkeleygw-conv2d-yang.txt`;
//! the Nsight Compute hierarchical roofline post) for FLOPs and bytes, and Ding & Williams'
//! Table I (`instruction-roofline-gpus-ding-williams-2019.txt`) for instructions, transactions
//! and memory walls. Every metric named here is one the importers map (tested below).

use crate::chart::Mode;
use crate::import::hints;

/// One way to collect: the tool and its command line(s), `./app` standing for the program.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Recipe {
    pub tool: &'static str,
    pub commands: Vec<String>,
    pub note: &'static str,
}

/// Nsight Compute: time, FLOPs (add + mul + 2 × fma per precision, tensor pipe) and bytes per
/// level: the NERSC set the importers' hints also name.
pub fn ncu_hierarchical() -> Vec<&'static str> {
    [hints::NCU_TIME, hints::NCU_FLOPS, hints::NCU_BYTES].concat()
}

/// Nsight Compute: warp/thread instructions and transactions per level (Ding & Williams).
pub const NCU_INSTRUCTION: &[&str] = &[
    "gpu__time_duration.sum",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum",
    "lts__t_sectors_op_atom.sum",
    "lts__t_sectors_op_red.sum",
    "dram__sectors_read.sum",
    "dram__sectors_write.sum",
    "sm__inst_executed_pipe_tensor.sum",
];

/// Nsight Compute: LD/ST instructions and transactions for memory walls, and the shared-memory
/// bank conflicts the hardware counts (loads and stores apart: a conflict-free 64- or 128-bit
/// access needs 2–4 wavefronts, so wavefronts alone cannot tell width from conflicts).
pub const NCU_WALLS: &[&str] = &[
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
];

/// nvprof (CUDA ≤ 10, Pascal/Volta): FLOPs and DRAM/L2 transactions (32 bytes each).
pub const NVPROF_HIERARCHICAL: &[&str] =
    &["flop_count_dp", "flop_count_sp", "flop_count_hp", "dram_read_transactions", "dram_write_transactions", "l2_read_transactions", "l2_write_transactions"];

/// nvprof: Ding & Williams' Table I.
pub const NVPROF_INSTRUCTION: &[&str] = &[
    "inst_executed",
    "inst_thread_executed",
    "inst_executed_global_loads",
    "inst_executed_global_stores",
    "inst_executed_shared_loads",
    "inst_executed_shared_stores",
    "gld_transactions",
    "gst_transactions",
    "local_load_transactions",
    "local_store_transactions",
    "shared_load_transactions",
    "shared_store_transactions",
    "l2_read_transactions",
    "l2_write_transactions",
    "dram_read_transactions",
    "dram_write_transactions",
];

/// rocprof counters of rocprof-compute's roofline (FLOPs by VALU/MFMA instruction, HBM bytes).
pub const ROCPROF_COUNTERS: &[&str] = &[
    "SQ_INSTS_VALU_ADD_F64 SQ_INSTS_VALU_MUL_F64 SQ_INSTS_VALU_FMA_F64",
    "SQ_INSTS_VALU_ADD_F32 SQ_INSTS_VALU_MUL_F32 SQ_INSTS_VALU_FMA_F32",
    "FETCH_SIZE WRITE_SIZE",
];

fn ncu(metrics: &[&str]) -> String {
    format!("ncu --csv --page details --metrics {} ./app > profile.csv", metrics.join(","))
}

fn nvprof(metrics: &[&str]) -> Vec<String> {
    vec![
        format!("nvprof --csv --log-file metrics.csv --metrics {} ./app", metrics.join(",")),
        "nvprof --csv --log-file times.csv --print-gpu-summary ./app".to_string(),
    ]
}

/// The recipes for one chart mode, Nsight Compute first.
pub fn recipes(mode: Mode) -> Vec<Recipe> {
    let mut out = Vec::new();
    match mode {
        Mode::Instruction | Mode::Walls => {
            let metrics = if mode == Mode::Walls { NCU_WALLS } else { NCU_INSTRUCTION };
            out.push(Recipe { tool: "Nsight Compute", commands: vec![ncu(metrics)], note: "Volta and newer; drop both result files on the page together with a time file if time is missing." });
            out.push(Recipe { tool: "nvprof", commands: nvprof(NVPROF_INSTRUCTION), note: "Pascal/Volta, CUDA ≤ 10 (Ding & Williams, Table I). Drop both files together." });
        }
        Mode::Classic | Mode::Hierarchical | Mode::Transfers => {
            out.push(Recipe {
                tool: "Nsight Compute",
                commands: vec![ncu(&ncu_hierarchical())],
                note: "The NERSC hierarchical roofline set. The roofs are drawn at the SM clock the profile measured (Nsight Compute locks clocks to base).",
            });
            if let Some((_, commands)) = hints::tensor_ops_hint(Some("sm_90")) {
                out.push(Recipe {
                    tool: "Nsight Compute (tensor cores)",
                    commands,
                    note: "Matrix FLOPs per data type (FP64, TF32, FP16, BF16, FP8, …), each judged against its own roof; the full set has them on Hopper and Blackwell. On Volta, the tensor-pipe instructions above × 512 FLOPs.",
                });
            }
            out.push(Recipe { tool: "nvprof", commands: nvprof(NVPROF_HIERARCHICAL), note: "CUDA ≤ 10. Drop both files together: metrics give FLOPs and bytes, the summary gives time." });
            out.push(Recipe {
                tool: "rocprof",
                commands: vec![
                    format!("printf 'pmc: %s\\n' {} > counters.txt", ROCPROF_COUNTERS.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(" ")),
                    "rocprof -i counters.txt --timestamp on -o counters.csv ./app".to_string(),
                ],
                note: "AMD Instinct; FETCH_SIZE/WRITE_SIZE are HBM kilobytes. Or drop rocprof-compute's pmc_perf.csv and roofline.csv.",
            });
            out.push(Recipe {
                tool: "Intel Advisor",
                commands: vec![
                    "advisor --collect=roofline --project-dir=./adv -- ./app".to_string(),
                    "advisor --report=survey --project-dir=./adv --format=csv --report-output=survey.csv".to_string(),
                ],
                note: "CPU roofline (add --profile-gpu to collect for Intel GPUs).",
            });
        }
    }
    if mode == Mode::Transfers {
        out.insert(0, Recipe { tool: "nvprof", commands: vec!["nvprof --csv --log-file trace.csv --print-gpu-trace ./app".into()], note: "Memory copies with sizes and times." });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{load_dataset, SourceFile};

    /// Builds a details-page CSV that has one row per metric with value 1, imports it, and
    /// returns how many distinct counters it filled: every recipe metric must be understood.
    fn counters_filled(metrics: &[&str]) -> usize {
        let mut csv = String::from("\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
        for m in metrics {
            let unit = if m.contains("time") { "nsecond" } else if m.contains("per_second") { "cycle/second" } else if m.contains("bytes") { "byte" } else { "" };
            csv.push_str(&format!("\"0\",\"1\",\"app\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"{m}\",\"{unit}\",\"1\"\n"));
        }
        let ds = load_dataset(&[SourceFile { name: "r.csv".into(), bytes: csv.into_bytes() }]).expect("recipe output imports");
        ds.kernels[0].counters.iter().count()
    }

    #[test]
    fn every_ncu_metric_of_every_recipe_is_read() {
        // Distinct counters: time, cycles, clock, 9 FLOP instruction counters, tensor, 3 byte
        // levels, and the cycle time the launch's cycles and clock give.
        assert_eq!(counters_filled(&ncu_hierarchical()), 17);
        // time, warp, thread, global, local, shared, L2, DRAM transactions, tensor.
        assert_eq!(counters_filled(NCU_INSTRUCTION), 9);
        // global/shared LD/ST instructions and transactions, load and store bank conflicts.
        assert_eq!(counters_filled(NCU_WALLS), 6);
    }

    #[test]
    fn recipes_name_their_metrics() {
        let classic = recipes(Mode::Classic);
        assert_eq!(classic[0].tool, "Nsight Compute");
        assert!(classic[0].commands[0].contains("dram__bytes.sum"));
        assert!(recipes(Mode::Walls)[0].commands[0].contains("smsp__inst_executed_op_shared_ld.sum"));
        assert!(recipes(Mode::Instruction)[1].commands[0].contains("inst_thread_executed"));
        assert_eq!(recipes(Mode::Transfers)[0].tool, "nvprof");
    }
}
