//! What to tell a user whose file lacks what a chart needs: the missing metrics by name and
//! the exact profiler command that collects them.
//!
//! Metric sets: the NERSC hierarchical roofline recipe for Nsight Compute (Yang et al.,
//! `shared/reference/roofline-use-cases-berkeleygw-conv2d-yang.txt` and the Nsight Compute
//! hierarchical roofline post): time = `sm__cycles_elapsed.avg` / `….avg.per_second`, FLOPs
//! from `sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum` and
//! `sm__inst_executed_pipe_tensor.sum`, bytes from `dram__bytes.sum`, `lts__t_bytes.sum`,
//! `l1tex__t_bytes.sum`. For nvprof, `flop_count_{dp,sp,hp}` (Yang et al.) and the
//! transaction metrics of Ding & Williams' Table I
//! (`shared/reference/instruction-roofline-gpus-ding-williams-2019.txt`).

use crate::domain::counters::Counter;
use crate::error::ImportError;

/// Nsight Compute metrics of the NERSC hierarchical roofline.
pub const NCU_TIME: &[&str] = &["gpu__time_duration.sum", "sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second"];
pub const NCU_FLOPS: &[&str] = &[
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "sm__inst_executed_pipe_tensor.sum",
];
pub const NCU_BYTES: &[&str] = &["dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum"];

/// nvprof metrics for FLOPs and DRAM bytes (nvprof's time comes from `--print-gpu-summary`).
pub const NVPROF_FLOPS: &[&str] = &["flop_count_dp", "flop_count_sp", "flop_count_hp"];
pub const NVPROF_BYTES: &[&str] = &["dram_read_transactions", "dram_write_transactions", "l2_read_transactions", "l2_write_transactions"];

/// rocprof counters for FLOPs and HBM bytes (rocprof-compute's roofline set): vector FLOPs
/// and the matrix (MFMA) operations per type, as MI200 and later count them (MI100 has no
/// FLOP counters: rocprof-compute's gfx908 panels say "No perf counter").
/// `SQ_INSTS_VALU_MFMA_MOPS_F8` exists from MI300 on and is left out so that the command runs
/// on an MI200 too; see `rocprof::mod` for the arithmetic.
pub const ROCPROF_FLOPS: &[&str] = &[
    "SQ_INSTS_VALU_ADD_F64",
    "SQ_INSTS_VALU_MUL_F64",
    "SQ_INSTS_VALU_FMA_F64",
    "SQ_INSTS_VALU_ADD_F32",
    "SQ_INSTS_VALU_MUL_F32",
    "SQ_INSTS_VALU_FMA_F32",
    "SQ_INSTS_VALU_MFMA_MOPS_F64",
    "SQ_INSTS_VALU_MFMA_MOPS_F32",
    "SQ_INSTS_VALU_MFMA_MOPS_F16",
    "SQ_INSTS_VALU_MFMA_MOPS_BF16",
];
pub const ROCPROF_BYTES: &[&str] = &["FETCH_SIZE", "WRITE_SIZE"];

/// Each FLOP metric of [`NCU_FLOPS`] with the counter it fills: a set that collected some of
/// them and not others (the NERSC deep-learning example collected FFMA and the tensor pipe
/// only) undercounts every kernel's FLOPs by what the rest would have counted.
pub const NCU_FLOP_COUNTERS: [(&str, Counter); 10] = [
    (NCU_FLOPS[0], Counter::Fp64Add),
    (NCU_FLOPS[1], Counter::Fp64Mul),
    (NCU_FLOPS[2], Counter::Fp64Fma),
    (NCU_FLOPS[3], Counter::Fp32Add),
    (NCU_FLOPS[4], Counter::Fp32Mul),
    (NCU_FLOPS[5], Counter::Fp32Fma),
    (NCU_FLOPS[6], Counter::Fp16Add),
    (NCU_FLOPS[7], Counter::Fp16Mul),
    (NCU_FLOPS[8], Counter::Fp16Fma),
    (NCU_FLOPS[9], Counter::TensorInst),
];

/// The SASS instruction a FLOP metric counts: "sm__sass_thread_inst_executed_op_dadd_pred_on.sum"
/// → "DADD"; `None` for a metric of no one instruction (the tensor pipe's).
pub fn ncu_op_name(metric: &str) -> Option<String> {
    Some(metric.split("_op_").nth(1)?.split('_').next()?.to_uppercase())
}

/// Each vector precision's FLOP metrics of a profiler family, with the precision's FLOPs
/// counter that a reader fills from them: nvprof's `flop_count_{dp,sp,hp}`, rocprof's
/// `SQ_INSTS_VALU_{ADD,MUL,FMA}_F{64,32}` (rocprof reports no F16 vector FLOPs in the roofline
/// set). Empty for other families.
pub fn flop_metrics_by_precision(family: Family) -> Vec<(&'static str, Counter, &'static [&'static str])> {
    use Counter as C;
    match family {
        Family::Nvprof => vec![("FP64", C::Fp64Flops, &NVPROF_FLOPS[0..1]), ("FP32", C::Fp32Flops, &NVPROF_FLOPS[1..2]), ("FP16", C::Fp16Flops, &NVPROF_FLOPS[2..3])],
        Family::Rocprof => vec![("FP64", C::Fp64Flops, &ROCPROF_FLOPS[0..3]), ("FP32", C::Fp32Flops, &ROCPROF_FLOPS[3..6])],
        _ => Vec::new(),
    }
}

/// `ncu --metrics a,b ./app` writing the details page as CSV.
pub fn ncu_command(metrics: &[&str]) -> String {
    format!("ncu --csv --metrics {} ./app > profile.csv", metrics.join(","))
}

/// `nvprof --csv --metrics a,b ./app`.
pub fn nvprof_command(metrics: &[&str]) -> String {
    format!("nvprof --csv --metrics {} ./app 2> metrics.csv", metrics.join(","))
}

/// rocprof v1 with an input file listing the counters.
pub fn rocprof_command(counters: &[&str]) -> String {
    format!("echo 'pmc: {}' > input.txt && rocprof -i input.txt --timestamp on -o counters.csv ./app", counters.join(" "))
}

/// Hint for an Nsight Compute run that profiled no kernel.
/// The section of Nsight Compute's full set that measures tensor operations per data-type path
/// (`sm__ops_path_tensor_src_<type>.sum`, which count FLOPs): its identifier as the section
/// files name it (in the full set of 2025.1 on Hopper: a GH200 report in shared/samples).
pub const NCU_TENSOR_SECTION: &str = "SpeedOfLight_HierarchicalTensorRooflineChart";

/// Where only tensor instructions were counted on an architecture whose tensor instructions do
/// different amounts of work by shape (Turing and later: HMMA.1688 and .16816, wgmma, tcgen05),
/// what to collect instead, per GPU generation: the message and the commands. Volta (`sm_70`)
/// needs nothing (512 FLOPs per HMMA.884).
pub fn tensor_ops_hint(arch: Option<&str>) -> Option<(String, Vec<String>)> {
    let arch = arch.unwrap_or("");
    if arch == "sm_70" {
        return None;
    }
    let generation = match arch {
        "sm_75" => "Turing",
        "sm_80" | "sm_86" | "sm_87" => "Ampere",
        "sm_89" => "Ada",
        "sm_90" => "Hopper",
        a if a.starts_with("sm_10") || a.starts_with("sm_12") => "Blackwell",
        _ => "this GPU",
    };
    let raw = format!(
        "ncu --csv --page raw --section {NCU_TENSOR_SECTION} --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,dram__bytes.sum ./app > tensor.csv"
    );
    let mut commands = Vec::new();
    if matches!(generation, "Hopper" | "Blackwell") {
        // The section is part of the full set there: a report has everything.
        commands.push("ncu --set full -o report ./app   (then drop report.ncu-rep on the page)".to_string());
    }
    commands.push(raw);
    let message = format!(
        "tensor instructions (sm__inst_executed_pipe_tensor) were counted but not tensor operations: on {generation} one tensor instruction does a different number of FLOPs depending on its shape, so they are not turned into FLOPs; collect the operations per data type (sm__ops_path_tensor_src_<type>.sum, Nsight Compute's hierarchical tensor roofline section; `ncu --list-sections` shows whether your version has it for this GPU)"
    );
    Some((message, commands))
}

pub fn ncu_profiled_nothing() -> String {
    format!(
        "check the kernel filters (-k, --launch-skip, --profile-from-start) and collect e.g. `{}`",
        ncu_command(&[NCU_TIME[0], NCU_FLOPS[5], NCU_BYTES[0]])
    )
}

/// The profiler family of an importer's format id, to phrase a hint in its own terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Ncu,
    Nvprof,
    Rocprof,
    Advisor,
    Other,
}

pub fn family(format: &str) -> Family {
    if format.starts_with("ncu") {
        Family::Ncu
    } else if format.starts_with("nvprof") {
        Family::Nvprof
    } else if format.starts_with("rocprof") {
        Family::Rocprof
    } else if format.starts_with("advisor") {
        Family::Advisor
    } else {
        Family::Other
    }
}

/// The hint for an Nsight Compute report that lacks metrics: a full-set report stores what
/// a roofline needs (FLOP rates, DRAM bytes, durations, peaks); `csv_hint` (the CSV command
/// for the missing metrics) also works with `-o report` instead of `--csv`.
pub fn for_report(csv_hint: &str) -> String {
    let metrics_only = csv_hint.replace("ncu --csv ", "ncu ").replace(" ./app > profile.csv", " -o report ./app");
    format!("ncu --set full -o report ./app; or only the missing metrics: {metrics_only}")
}

/// The hint for an Nsight Compute details page without FLOP counters. A page exported from a
/// report has none even when the report does (`--set full` stores FLOP counts as rates that
/// no section prints: the H100 and H200 fixtures' `simt-full.details.csv`), so the report
/// itself, or its raw page, is the quicker way to them than profiling again.
pub fn for_details_page(csv_hint: &str) -> String {
    format!("{csv_hint}; or, for a page exported from a report (ncu -i report.ncu-rep --csv --page details), open the report itself or its raw page: ncu -i report.ncu-rep --csv --page raw > raw.csv")
}

/// What a roofline point lacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Missing {
    pub time: bool,
    pub flops: bool,
    pub bytes: bool,
}

impl Missing {
    pub fn any(self) -> bool {
        self.time || self.flops || self.bytes
    }
}

/// What `files` files of `family` lack, for people: one short sentence ("This file has times
/// but no FLOP or byte counters"), the metrics that would fill the gap, and the exact command
/// that collects them.
pub fn missing_message(family: Family, m: Missing, files: usize) -> (String, Vec<String>, String) {
    let mut metrics: Vec<&str> = Vec::new();
    let hint = match family {
        Family::Ncu => {
            if m.time {
                metrics.extend_from_slice(NCU_TIME);
            }
            if m.flops {
                metrics.extend_from_slice(NCU_FLOPS);
            }
            if m.bytes {
                metrics.extend_from_slice(NCU_BYTES);
            }
            ncu_command(&metrics)
        }
        Family::Nvprof => {
            let mut cmds = Vec::new();
            if m.flops || m.bytes {
                let mut ms: Vec<&str> = Vec::new();
                if m.flops {
                    ms.extend_from_slice(NVPROF_FLOPS);
                }
                if m.bytes {
                    ms.extend_from_slice(NVPROF_BYTES);
                }
                metrics.extend_from_slice(&ms);
                cmds.push(nvprof_command(&ms));
            }
            if m.time {
                metrics.push("kernel time (GPU summary)");
                cmds.push("nvprof --csv --print-gpu-summary ./app 2> summary.csv".to_string());
            }
            cmds.join(" and ")
        }
        Family::Rocprof => {
            let mut cs: Vec<&str> = Vec::new();
            if m.flops {
                cs.extend_from_slice(ROCPROF_FLOPS);
            }
            if m.bytes {
                cs.extend_from_slice(ROCPROF_BYTES);
            }
            metrics.extend_from_slice(&cs);
            if m.time {
                metrics.push("kernel time (--timestamp on)");
            }
            if cs.is_empty() {
                "rocprof --stats --timestamp on ./app".to_string()
            } else {
                rocprof_command(&cs)
            }
        }
        Family::Advisor => {
            metrics.extend(["Self GFLOP", "Self Memory GB", "Self Elapsed Time"]);
            "advisor --collect=roofline --project-dir=./adv -- ./app && advisor --report=survey --show-all-columns --format=csv --project-dir=./adv --report-output=survey.csv".to_string()
        }
        Family::Other => {
            metrics.extend(["time_s", "flops", "bytes_dram"]);
            "add the columns time_s, flops and bytes_dram (see docs/FORMATS.md, tidy CSV)".to_string()
        }
    };
    (missing_sentence(m, files), metrics.into_iter().map(str::to_string).collect(), hint)
}

/// "a, b or c"; "a and b" with `and`.
fn list(items: &[&str], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

/// "This file has times but no FLOP or byte counters"; "These files have no time, FLOP or byte
/// counters".
pub fn missing_sentence(m: Missing, files: usize) -> String {
    let subject = if files == 1 { "This file has" } else { "These files have" };
    let has: Vec<&str> = [(!m.time, "times"), (!m.flops, "FLOP counts"), (!m.bytes, "byte counts")].iter().filter(|x| x.0).map(|x| x.1).collect();
    let lacks: Vec<&str> = [(m.time, "time"), (m.flops, "FLOP"), (m.bytes, "byte")].iter().filter(|x| x.0).map(|x| x.1).collect();
    if has.is_empty() {
        format!("{subject} no {} counters", list(&lacks, "or"))
    } else {
        format!("{subject} {} but no {} counters", list(&has, "and"), list(&lacks, "or"))
    }
}

/// Where docs/FORMATS.md is mentioned as the list of what can be read.
pub const FORMATS_HINT: &str = "docs/FORMATS.md lists the supported formats and the commands that produce them";

/// The error for a file no importer recognises, saying what it is when that can be named:
/// empty, binary (NUL bytes: a profiler's own report, an archive), or a spreadsheet export
/// with `;` separators (Excel in European locales, which also writes `,` decimals).
pub fn unrecognised(file: &str, text: &str) -> ImportError {
    if text.trim().is_empty() {
        return ImportError::new(file, None, "the file is empty; expected a profiler's CSV or text output").with_hint(FORMATS_HINT);
    }
    if text.contains('\0') {
        return ImportError::new(file, None, "the file is binary, not text; expected a profiler's CSV or text output")
            .with_hint("export a profiler's own report as CSV first, e.g. `ncu --import report.ncu-rep --csv > profile.csv`");
    }
    if let Some(decimals) = semicolon_table(text) {
        let message = if decimals {
            "the file uses ';' separators and ',' decimals (Excel export?): save as CSV with ',' separators and '.' decimals"
        } else {
            "the file uses ';' separators (Excel export?): save as CSV with ',' separators"
        };
        return ImportError::new(file, None, message)
            .with_hint("in Excel or LibreOffice, save as \"CSV (comma delimited)\" with '.' as the decimal separator");
    }
    ImportError::new(file, None, "not a recognised profiler output (expected Nsight Compute, nvprof, rocprof, Intel Advisor, ERT or tidy CSV)")
        .with_hint(FORMATS_HINT)
}

/// Whether `text` starts with a table separated by `;` (a line with more `;` than `,`, and
/// the next line with as many `;`), and if so whether a cell is a number with a decimal comma.
fn semicolon_table(text: &str) -> Option<bool> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).take(200);
    let header = lines.by_ref().find(|l| {
        let semis = l.matches(';').count();
        semis >= 1 && semis > l.matches(',').count()
    })?;
    let fields = header.matches(';').count();
    let rows: Vec<&str> = lines.take(20).collect();
    if rows.first().is_none_or(|r| r.matches(';').count() != fields) {
        return None;
    }
    Some(rows.iter().any(|r| r.split(';').any(|c| is_decimal_comma(c.trim().trim_matches('"')))))
}

/// `12,5`, `-0,25`, `2,0e10`: digits, one comma, digits (a decimal comma, not thousands).
fn is_decimal_comma(cell: &str) -> bool {
    let body = cell.strip_prefix('-').unwrap_or(cell);
    let mantissa = body.split(['e', 'E']).next().unwrap_or(body);
    let Some((int, frac)) = mantissa.split_once(',') else { return false };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac) && (frac.len() != 3 || int == "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sentences() {
        let m = |time, flops, bytes| Missing { time, flops, bytes };
        assert_eq!(missing_sentence(m(true, true, true), 1), "This file has no time, FLOP or byte counters");
        assert_eq!(missing_sentence(m(false, false, true), 5), "These files have times and FLOP counts but no byte counters");
        assert_eq!(missing_sentence(m(true, false, false), 1), "This file has FLOP counts and byte counts but no time counters");
    }

    #[test]
    fn ncu_hint_names_metrics_and_command() {
        let (msg, metrics, hint) = missing_message(Family::Ncu, Missing { time: false, flops: true, bytes: true }, 1);
        assert_eq!(msg, "This file has times but no FLOP or byte counters");
        assert!(metrics.iter().any(|m| m == "sm__sass_thread_inst_executed_op_dfma_pred_on.sum"), "{metrics:?}");
        assert!(hint.starts_with("ncu --csv --metrics sm__sass_thread_inst_executed_op_dadd_pred_on.sum,"), "{hint}");
        assert!(hint.contains("dram__bytes.sum"), "{hint}");
    }

    #[test]
    fn nvprof_hint_has_both_commands() {
        let (msg, _, hint) = missing_message(Family::Nvprof, Missing { time: true, flops: true, bytes: false }, 2);
        assert_eq!(msg, "These files have byte counts but no time or FLOP counters");
        assert!(hint.contains("nvprof --csv --metrics flop_count_dp,flop_count_sp,flop_count_hp ./app"), "{hint}");
        assert!(hint.contains("--print-gpu-summary"), "{hint}");
    }
}
