//! The reports the `roofline` CLI prints (and the app can reuse): serde structs whose field
//! names are a public contract, documented with a full example in docs/CLI.md.
//!
//! Every quantity is a total over a kernel's launches, in base units (seconds, FLOPs, bytes,
//! instructions, transactions, per second). A quantity that was not measured is `null`, never
//! 0; a measured zero is 0.

use crate::domain::counters::Counter;
use crate::choice::{Chosen, ClockBasis, MachineChoice};
use crate::dataset::Dataset;
use crate::domain::DataType;
use crate::domain::FileInfo;
use crate::model::classic::{ridges, Ridge};
use crate::model::guidance::{guide, rank, summary, whole_run_speedup, Guidance};
use crate::model::hierarchical::{kernel_points, level_bytes, sizes};
use crate::model::instruction::{instruction_points, predication_ratio, tensor_inst_per_s, threads_per_warp, warp_inst, InstructionPoint};
use crate::model::transfers::{transfer_points, TransferPoint};
use crate::model::walls::{global_ldst, shared_ldst, walls, LdStPoint, Wall};
use crate::model::{Ceiling, Level, Machine, MemoryLevel, RooflinePoint};
use crate::domain::profile::{KernelProfile, Precision};
use crate::units::si;
use serde::Serialize;

/// `roofline analyze --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalyzeReport {
    pub files: Vec<FileInfo>,
    /// The device the files say ran the kernels (of several: the one with most kernel time).
    pub device: Option<DeviceSummary>,
    pub machine: Option<MachineSummary>,
    pub kernels: Vec<KernelReport>,
    /// Memory copies and memsets (not kernels), on the transfer roofline.
    pub transfers: Vec<TransferPoint>,
    /// Σ time_s of the kernels that have one.
    pub total_time_s: Option<f64>,
    /// Whole-run speed-up if every kernel reached its roof (Amdahl); `null` without machine.
    pub whole_run_speedup: Option<f64>,
    /// What the reader should know about the machine: several devices, a machine that is not
    /// the profile's device, an assumed model, a tensor factor not applied.
    pub warnings: Vec<String>,
}

/// The profile's device.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceSummary {
    pub name: Option<String>,
    /// `sm_90`, `gfx942`.
    pub arch: Option<String>,
    /// SMs (NVIDIA), CUs (AMD).
    pub sm_count: Option<u32>,
    /// The SM clock measured in the profile, time-weighted over launches.
    pub sm_clock_hz: Option<f64>,
}

/// The machine the kernels were placed against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MachineSummary {
    pub id: String,
    pub name: String,
    pub source: String,
    /// `sm_90`, `gfx942`: equals `device.arch` when the profile's device was identified.
    pub arch: Option<String>,
    /// `profile` (the profile's device), `option` (the user named it), `file` (a machine file
    /// among the inputs); `null` when the caller gave a machine without saying.
    pub chosen: Option<Chosen>,
    /// Which clock the ceilings are evaluated at: `measured`, `base`, `boost`, `given`, `stated`.
    pub clock: Option<ClockBasis>,
    /// The clock the ceilings are evaluated at, Hz.
    pub clock_hz: Option<f64>,
    pub flops_per_tensor_inst: Option<f64>,
    /// `{name, kind, flops_per_s}`; the first of each kind is that kind's roof.
    pub compute: Vec<Ceiling>,
    /// `{name, level, bytes_per_s}`.
    pub memory: Vec<MemoryLevel>,
    /// The sentence above the chart: "Profiled on … at 765 MHz measured: roofs of … at 765 MHz (measured)".
    pub sentence: Option<String>,
}

/// FLOPs by precision; `tensor` is all matrix FLOPs; `total` includes them and FLOPs of
/// unknown precision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flops {
    pub fp64: Option<f64>,
    pub fp32: Option<f64>,
    pub fp16: Option<f64>,
    pub tensor: Option<f64>,
    pub total: Option<f64>,
    /// Matrix (tensor core, MFMA, XMX) work per input data type, as counted; `int8` counts
    /// integer operations (not in `tensor` or `total`).
    pub matrix: MatrixFlops,
}

/// Matrix work per data type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatrixFlops {
    pub fp64: Option<f64>,
    pub tf32: Option<f64>,
    pub fp32: Option<f64>,
    pub fp16: Option<f64>,
    pub bf16: Option<f64>,
    pub fp8: Option<f64>,
    pub fp6: Option<f64>,
    pub fp4: Option<f64>,
    pub int8: Option<f64>,
}

impl MatrixFlops {
    fn of(k: &KernelProfile) -> MatrixFlops {
        let t = |d: DataType| k.matrix_flops(d);
        MatrixFlops {
            fp64: t(DataType::Fp64),
            tf32: t(DataType::Tf32),
            fp32: t(DataType::Fp32),
            fp16: t(DataType::Fp16),
            bf16: t(DataType::Bf16),
            fp8: t(DataType::Fp8),
            fp6: t(DataType::Fp6),
            fp4: t(DataType::Fp4),
            int8: t(DataType::Int8),
        }
    }
}

/// Bytes at each memory level: the level's byte counter, else its transactions × size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bytes {
    pub l1: Option<f64>,
    pub l2: Option<f64>,
    pub dram: Option<f64>,
    pub shared: Option<f64>,
}

/// Transactions (32-byte sectors; shared: wavefronts of up to 128 bytes) as counted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Txn {
    pub global: Option<f64>,
    pub local: Option<f64>,
    pub shared: Option<f64>,
    pub l2: Option<f64>,
    pub dram: Option<f64>,
}

/// A kernel's Instruction Roofline quantities (Ding & Williams).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionReport {
    /// Warp instructions per second (thread instructions / 32 where warp ones were not counted).
    pub warp_inst_per_s: Option<f64>,
    /// Thread instructions / 32 per second.
    pub thread_inst_per_s: Option<f64>,
    /// warp instructions ÷ (thread instructions / 32): 1 = no predication.
    pub predication_ratio: Option<f64>,
    /// Tensor-pipe (HMMA) instructions per second.
    pub tensor_inst_per_s: Option<f64>,
    /// One dot per level (L1, L2, DRAM).
    pub points: Vec<InstructionPoint>,
    /// Global LD/ST dot against the global memory walls.
    pub global_ldst: Option<LdStPoint>,
    /// Shared LD/ST dot against the shared memory walls.
    pub shared_ldst: Option<LdStPoint>,
}

/// One kernel: measured totals, derived dots and guidance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelReport {
    pub name: String,
    pub launches: u64,
    pub time_s: Option<f64>,
    pub flops: Flops,
    pub bytes: Bytes,
    pub warp_inst: Option<f64>,
    pub thread_inst: Option<f64>,
    /// Thread instructions of non-predicated threads (Ding & Williams Table I).
    pub thread_inst_pred_on: Option<f64>,
    pub txn: Txn,
    /// Global LD/ST warp instructions (else requests, `global_ldst_req`, never both added).
    pub global_ldst_inst: Option<f64>,
    pub global_ldst_req: Option<f64>,
    pub shared_ldst_inst: Option<f64>,
    pub tensor_inst: Option<f64>,
    pub int_ops: Option<f64>,
    /// flops.total / time_s.
    pub flops_per_s: Option<f64>,
    /// Hierarchical roofline dots, one per level with bytes (the DRAM one is the classic dot).
    pub points: Vec<RooflinePoint>,
    pub instruction: InstructionReport,
    /// `null` without a machine, a time, or any counter the machine has a ceiling for.
    pub guidance: Option<Guidance>,
    /// One plain-language sentence.
    pub summary: String,
    /// What would move it off its binding roof, by the kind of bound ([`crate::model::advice`]);
    /// `null` without guidance, above its roof or at it.
    pub advice: Option<String>,
    /// Each quantity above with the metrics it came from, their values, the formula and what
    /// was missing ([`crate::provenance`]); empty where the files are not known
    /// ([`analyze_kernels`]).
    pub provenance: Vec<crate::provenance::Quantity>,
}

impl MachineSummary {
    pub fn of(m: &Machine) -> Self {
        MachineSummary {
            id: m.id.clone(),
            name: m.name.clone(),
            source: m.source.clone(),
            arch: m.arch.clone(),
            chosen: None,
            clock: None,
            clock_hz: m.clock_hz,
            flops_per_tensor_inst: m.flops_per_tensor_inst,
            compute: m.compute.clone(),
            memory: m.memory.clone(),
            sentence: None,
        }
    }

    /// The summary of a chosen machine: where it came from, its clock, the sentence.
    pub fn of_choice(c: &MachineChoice) -> Self {
        MachineSummary { chosen: Some(c.chosen), clock: Some(c.clock), sentence: Some(c.sentence.clone()), ..MachineSummary::of(&c.machine) }
    }
}

impl DeviceSummary {
    pub fn of(ds: &Dataset) -> Option<DeviceSummary> {
        let d = &ds.main_device()?.device;
        Some(DeviceSummary { name: d.name.clone(), arch: d.arch.clone(), sm_count: d.sm_count, sm_clock_hz: ds.measured_sm_clock_hz() })
    }
}

/// The report of a dataset against the machine [`crate::choice::choose`] picked (or none).
pub fn analyze_choice(ds: &Dataset, choice: Option<&MachineChoice>) -> AnalyzeReport {
    let mut r = analyze(ds, choice.map(|c| &c.machine));
    if let Some(c) = choice {
        r.machine = Some(MachineSummary::of_choice(c));
        r.warnings = c.warnings.clone();
    } else if r.kernels.iter().any(|k| k.time_s.is_some() || k.flops.total.is_some()) {
        r.warnings.push(crate::choice::no_machine_reason(ds));
    }
    r
}

/// The report of a dataset against a machine (or none).
pub fn analyze(ds: &Dataset, machine: Option<&Machine>) -> AnalyzeReport {
    let mut r = AnalyzeReport {
        files: ds.files.clone(),
        device: DeviceSummary::of(ds),
        transfers: transfer_points(&ds.transfers, machine),
        ..analyze_kernels(&ds.kernels, machine)
    };
    // Without files (the app's kernels alone, `analyze_kernels`) there is no metric to name.
    let origin = crate::provenance::Origin::of_files(ds.files.iter().map(|f| f.format));
    for (report, k) in r.kernels.iter_mut().zip(&ds.kernels).filter(|_| !ds.files.is_empty()) {
        report.provenance = crate::provenance::of_kernel(k, origin, machine);
    }
    r
}

/// [`analyze`] of a dataset of these kernels alone (no files, devices or transfers): what the
/// web app's tables and summary show, without first copying its kernels into a [`Dataset`]
/// (10,000 kernels are ≈ 7 MB of counters and 10,000 names, copied on every change of machine).
pub fn analyze_kernels(kernels: &[KernelProfile], machine: Option<&Machine>) -> AnalyzeReport {
    KernelsReport::new(kernels, machine).finish()
}

/// [`analyze_kernels`] built a part at a time: the web app builds the report of a large load
/// over several tasks of the page, [`KernelsReport::step`] by step, so that none of them is
/// long (issue 17: 10,000 kernels took one task of 50–90 ms in the browser). The steps do the
/// work of one call in the same order, so the report is the same to the bit however it is cut.
pub struct KernelsReport<'a> {
    kernels: &'a [KernelProfile],
    machine: Option<&'a Machine>,
    /// Each kernel's guidance, in kernel order: the first pass (none without a machine).
    guidance: Vec<Option<Guidance>>,
    /// Each kernel's report: the second pass, once the guidance is ranked.
    reports: Vec<KernelReport>,
    /// The whole run's speed-up, found when the guidance is ranked.
    whole_run_speedup: Option<f64>,
}

impl<'a> KernelsReport<'a> {
    pub fn new(kernels: &'a [KernelProfile], machine: Option<&'a Machine>) -> Self {
        KernelsReport { kernels, machine, guidance: Vec::with_capacity(machine.map_or(0, |_| kernels.len())), reports: Vec::with_capacity(kernels.len()), whole_run_speedup: None }
    }

    /// Does the work of up to `kernels` more kernels (each kernel counts twice: its guidance,
    /// then its report); returns whether the whole report is done.
    pub fn step(&mut self, kernels: usize) -> bool {
        let mut budget = kernels.max(1);
        if let Some(m) = self.machine {
            let guided = self.guidance.len();
            if guided < self.kernels.len() {
                let to = guided.saturating_add(budget).min(self.kernels.len());
                self.guidance.extend(self.kernels[guided..to].iter().map(|k| guide(k, m)));
                budget -= to - guided;
                if to == self.kernels.len() {
                    rank(self.kernels, &mut self.guidance);
                    self.whole_run_speedup = whole_run_speedup(self.kernels, &self.guidance);
                }
            }
        }
        if budget > 0 && (self.machine.is_none() || self.guidance.len() == self.kernels.len()) {
            let per_inst = self.machine.and_then(|m| m.flops_per_tensor_inst);
            let s = sizes(self.machine);
            let tpw = threads_per_warp(self.machine);
            let from = self.reports.len();
            let to = from.saturating_add(budget).min(self.kernels.len());
            for i in from..to {
                let g = self.guidance.get_mut(i).and_then(Option::take);
                self.reports.push(kernel_report(i, &self.kernels[i], self.machine, g, per_inst, &s, tpw));
            }
        }
        self.reports.len() == self.kernels.len()
    }

    /// The report, after doing whatever work is left.
    pub fn finish(mut self) -> AnalyzeReport {
        while !self.step(usize::MAX) {}
        let times: Vec<f64> = self.kernels.iter().filter_map(|k| k.time_s()).collect();
        AnalyzeReport {
            files: Vec::new(),
            device: None,
            machine: self.machine.map(MachineSummary::of),
            kernels: self.reports,
            transfers: Vec::new(),
            total_time_s: (!times.is_empty()).then(|| times.iter().sum()),
            whole_run_speedup: self.whole_run_speedup,
            warnings: Vec::new(),
        }
    }
}

fn kernel_report(
    i: usize,
    k: &KernelProfile,
    machine: Option<&Machine>,
    guidance: Option<Guidance>,
    per_inst: Option<f64>,
    s: &crate::model::TransactionSizes,
    tpw: f64,
) -> KernelReport {
    let c = &k.counters;
    let time_s = k.time_s();
    let total = k.total_flops(per_inst);
    let per_s = |v: Option<f64>| Some(v? / time_s.filter(|t| *t > 0.0)?);
    KernelReport {
        name: k.name.clone(),
        launches: k.launches,
        time_s,
        flops: Flops {
            fp64: k.flops(Precision::Fp64),
            fp32: k.flops(Precision::Fp32),
            fp16: k.flops(Precision::Fp16),
            tensor: k.tensor_flops(per_inst),
            total,
            matrix: MatrixFlops::of(k),
        },
        bytes: Bytes {
            l1: level_bytes(k, Level::L1, s),
            l2: level_bytes(k, Level::L2, s),
            dram: level_bytes(k, Level::Dram, s),
            shared: level_bytes(k, Level::Shared, s),
        },
        warp_inst: c.get(Counter::WarpInst),
        thread_inst: c.get(Counter::ThreadInst),
        thread_inst_pred_on: c.get(Counter::ThreadInstPredOn),
        txn: Txn {
            global: c.get(Counter::GlobalTxn),
            local: c.get(Counter::LocalTxn),
            shared: c.get(Counter::SharedTxn),
            l2: c.get(Counter::L2Txn),
            dram: c.get(Counter::DramTxn),
        },
        global_ldst_inst: c.get(Counter::GlobalLdStInst),
        global_ldst_req: c.get(Counter::GlobalLdStReq),
        shared_ldst_inst: c.get(Counter::SharedLdStInst),
        tensor_inst: c.get(Counter::TensorInst),
        int_ops: c.get(Counter::IntOps),
        flops_per_s: per_s(total),
        points: kernel_points(i, k, per_inst, s),
        instruction: InstructionReport {
            warp_inst_per_s: per_s(warp_inst(k)),
            thread_inst_per_s: per_s(k.thread_inst().map(|t| t / tpw)),
            predication_ratio: predication_ratio(k, tpw),
            tensor_inst_per_s: tensor_inst_per_s(k),
            points: instruction_points(k, s, tpw),
            global_ldst: global_ldst(k),
            shared_ldst: shared_ldst(k),
        },
        summary: summary(k, guidance.as_ref(), machine),
        advice: guidance.as_ref().zip(machine).and_then(|(g, m)| crate::model::advice::advice(k, g, m)),
        provenance: Vec::new(),
        guidance,
    }
}

/// `roofline machine ID --json`: the machine as stored, plus derived ceilings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MachineReport {
    #[serde(flatten)]
    pub machine: Machine,
    /// Every compute roof's ridge (balance point) against every memory level, FLOP/byte.
    pub ridges: Vec<Ridge>,
    /// Peak warp instructions per second (Instruction Roofline); `null` without issue model.
    pub warp_inst_per_s: Option<f64>,
    /// Peak tensor (HMMA) instructions per second: tensor roof ÷ FLOPs per instruction.
    pub tensor_inst_per_s: Option<f64>,
    /// Transactions per second at each level: bandwidth ÷ transaction size.
    pub txn_per_s: Vec<TxnCeiling>,
    /// Global and shared memory walls.
    pub walls: Vec<Wall>,
}

/// A level's bandwidth in transactions per second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TxnCeiling {
    pub level: Level,
    pub name: String,
    pub txn_bytes: f64,
    pub txn_per_s: f64,
}

pub fn machine_report(m: &Machine) -> MachineReport {
    let txn_per_s = match &m.transaction_bytes {
        None => Vec::new(),
        Some(sz) => [Level::L1, Level::Shared, Level::L2, Level::Dram]
            .iter()
            .filter_map(|&level| {
                let name = m.memory_level(level).map(|l| l.name.clone())?;
                Some(TxnCeiling { level, name, txn_bytes: sz.bytes(level), txn_per_s: m.txn_per_s(level)? })
            })
            .collect(),
    };
    MachineReport {
        machine: m.clone(),
        ridges: ridges(m),
        warp_inst_per_s: m.warp_inst_per_s(),
        tensor_inst_per_s: m.tensor_inst_per_s(),
        txn_per_s,
        walls: if m.transaction_bytes.is_some() { walls(m) } else { Vec::new() },
    }
}

fn opt(v: Option<f64>, unit: &str) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{}{unit}", si(v)))
}

/// The human-readable table of `roofline analyze` (no `--json`).
pub fn render_analyze_text(r: &AnalyzeReport) -> String {
    let mut out = String::new();
    for f in &r.files {
        match &f.tool {
            Some(tool) => out.push_str(&format!("file: {} ({}, {tool})\n", f.path, f.format)),
            None => out.push_str(&format!("file: {} ({})\n", f.path, f.format)),
        }
    }
    if let Some(d) = &r.device {
        let name = d.name.clone().or_else(|| d.arch.clone()).unwrap_or_else(|| "unnamed".into());
        out.push_str(&format!("device: {name}{}\n", d.sm_clock_hz.map_or(String::new(), |hz| format!(" (SM clock measured {:.0} MHz)", hz / 1e6))));
    }
    match &r.machine {
        Some(m) => {
            out.push_str(&format!("machine: {} [{}]\n", m.name, m.id));
            if let Some(s) = &m.sentence {
                out.push_str(&format!("  {s}\n"));
            }
        }
        None => out.push_str("machine: none (give --machine ID to get roofs and guidance)\n"),
    }
    for w in &r.warnings {
        out.push_str(&format!("note: {w}\n"));
    }
    out.push('\n');
    // The "bound by" column is as wide as its longest entry ("BF16 matrix via mma.sync + FP32
    // compute"), so the two columns after it stay aligned.
    // A kernel missing a side of the roofline names its largest measured bound and the side
    // that was not measured: what binds it is not assessed (model::guidance::Side).
    let bound_by = |g: Option<&Guidance>| {
        g.map_or("-".into(), |g| match (g.above_roof, g.unmeasured.first()) {
            (true, _) => format!("ABOVE {}", g.binding.name),
            (false, Some(side)) => format!("{} ({} unmeasured)", g.binding.name, side.label()),
            (false, None) => g.binding.name.clone(),
        })
    };
    let w = r.kernels.iter().map(|k| bound_by(k.guidance.as_ref()).chars().count()).max().unwrap_or(0).max(22);
    out.push_str(&format!(
        "{:>4}  {:<40} {:>8} {:>10} {:>12} {:>9} {:<w$} {:>6} {:>12}\n",
        "rank", "kernel", "launches", "time", "FLOP/s", "AI DRAM", "bound by", "% roof", "faster"
    ));
    for k in &r.kernels {
        let g = k.guidance.as_ref();
        let ai = k.points.iter().find(|p| p.level == Level::Dram).map(|p| p.flops_per_byte);
        let name: String = if k.name.chars().count() > 40 { k.name.chars().take(39).chain(['…']).collect() } else { k.name.clone() };
        out.push_str(&format!(
            "{:>4}  {:<40} {:>8} {:>10} {:>12} {:>9} {:<w$} {:>6} {:>12}\n",
            g.and_then(|g| g.rank).map_or("-".into(), |r| r.to_string()),
            name,
            k.launches,
            opt(k.time_s, "s"),
            opt(k.flops_per_s, "FLOP/s"),
            // Three decimals up to 10,000 FLOP/byte, none beyond (an FMA loop's 1.6 million).
            ai.map_or("-".into(), |a| if a >= 1e4 { format!("{a:.0}") } else { format!("{a:.3}") }),
            bound_by(g),
            g.map_or("-".into(), |g| format!("{:.0}%", g.attained_fraction * 100.0)),
            g.map_or("-".into(), |g| g.headroom.map_or("not assessed".into(), |h| format!("{h:.1}x"))),
        ));
    }
    out.push('\n');
    for k in &r.kernels {
        out.push_str(&format!("{}: {}\n", k.name, k.summary));
    }
    if !r.transfers.is_empty() {
        out.push_str("\ntransfers:\n");
        for t in &r.transfers {
            out.push_str(&format!(
                "  {:<30} x{:<6} {:>10} {:>10} {:>12} {}\n",
                t.name,
                t.count,
                opt(t.bytes, "B"),
                opt(t.time_s, "s"),
                opt(t.bytes_per_s, "B/s"),
                match (&t.roof, t.attained_fraction) {
                    (Some(roof), Some(f)) => format!("{:.0}% of {roof}", f * 100.0),
                    (Some(roof), None) => format!("against {roof}"),
                    _ => String::new(),
                }
            ));
        }
    }
    if let (Some(total), Some(s)) = (r.total_time_s, r.whole_run_speedup) {
        out.push_str(&format!("\nkernel time {}s; at their roofs the kernels would run {:.2}x faster overall\n", si(total), s));
    }
    out
}

/// The human-readable description of `roofline machine ID`.
pub fn render_machine_text(r: &MachineReport) -> String {
    let m = &r.machine;
    let mut out = format!("{} [{}]\nsource: {}\n", m.name, m.id, m.source);
    if let Some(c) = m.clock_hz {
        out.push_str(&format!(
            "clock: {}Hz (base {}, boost {})\n",
            si(c),
            m.base_clock_hz.map_or("-".into(), |v| format!("{}Hz", si(v))),
            m.boost_clock_hz.map_or("-".into(), |v| format!("{}Hz", si(v)))
        ));
    }
    let side = |name: &str, kind_is_compute: bool| -> String {
        let find = |set: &Option<crate::model::PeakSet>| {
            set.as_ref().and_then(|s| {
                if kind_is_compute {
                    s.compute.iter().find(|c| c.name == name).map(|c| c.flops_per_s)
                } else {
                    s.memory.iter().find(|l| l.name == name).map(|l| l.bytes_per_s)
                }
            })
        };
        format!("theoretical {:>10}  empirical {:>10}", opt(find(&m.theoretical), ""), opt(find(&m.empirical), ""))
    };
    out.push_str("compute (FLOP/s; INT: op/s):\n");
    for c in &m.compute {
        out.push_str(&format!("  {:<22} {:>10}   {}\n", c.name, si(c.flops_per_s), side(&c.name, true)));
    }
    out.push_str("memory (bytes/s):\n");
    for l in &m.memory {
        out.push_str(&format!("  {:<22} {:>10}   {}\n", format!("{} ({})", l.name, l.level.label()), si(l.bytes_per_s), side(&l.name, false)));
    }
    if let Some(t) = m.flops_per_tensor_inst {
        out.push_str(&format!("FLOPs per tensor instruction: {t}\n"));
    }
    if let Some(w) = r.warp_inst_per_s {
        out.push_str(&format!("peak warp instructions: {}IPS\n", si(w)));
    }
    if let Some(t) = r.tensor_inst_per_s {
        out.push_str(&format!("peak tensor instructions: {}IPS\n", si(t)));
    }
    for t in &r.txn_per_s {
        out.push_str(&format!("  {:<10} {}TXN/s ({} B transactions)\n", t.name, si(t.txn_per_s), t.txn_bytes));
    }
    for w in &r.walls {
        out.push_str(&format!("  wall {:<22} {:?} {:.4} inst/txn, up to {}\n", w.name, w.memory, w.inst_per_txn, opt(w.cap_inst_per_s, "IPS")));
    }
    for l in &m.links {
        out.push_str(&format!("link: {} {}B/s per direction\n", l.name, si(l.bytes_per_s)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{analyze, analyze_kernels, kernel_report, sizes, threads_per_warp, AnalyzeReport, KernelsReport, MachineSummary};
    use crate::dataset::Dataset;
    use crate::model::guidance::{guide_all, whole_run_speedup};
    use crate::model::Machine;
    use crate::domain::counters::Counter;
    use crate::domain::profile::KernelProfile;
    use crate::model::catalogue;

    /// The app's report (kernels alone, not copied into a dataset) is `analyze`'s of a dataset
    /// of those kernels, to the bit; with the dataset's files and transfers only those differ.
    #[test]
    fn analyze_kernels_is_analyze_of_a_dataset_of_the_kernels() {
        let kernels = vec![
            KernelProfile::from_counters("gemm", &[(Counter::TimeS, 1e-3), (Counter::Fp64Fma, 2e9), (Counter::DramBytes, 4e8)]),
            KernelProfile::from_counters("copy", &[(Counter::TimeS, 3e-3), (Counter::DramBytes, 2.4e9), (Counter::Fp32Fma, 0.0)]),
        ];
        let v100 = catalogue::v100();
        let alone = analyze_kernels(&kernels, Some(&v100));
        let ds = Dataset { kernels: kernels.clone(), ..Dataset::default() };
        assert_eq!(alone, analyze(&ds, Some(&v100)));
        assert_eq!(analyze_kernels(&kernels, None), analyze(&ds, None));
        // 1 ms + 3 ms; gemm: 2e9 FMAs are 4e9 FLOP in 1 ms, 4 TFLOP/s.
        assert_eq!(alone.total_time_s, Some(4e-3));
        assert_eq!(alone.kernels[0].flops_per_s, Some(4e12));
        assert_eq!(alone.kernels.len(), 2);
        assert!(alone.files.is_empty() && alone.transfers.is_empty() && alone.device.is_none());
    }

    /// The report as one pass computed it before [`KernelsReport`]: all guidance, ranked, then
    /// each kernel's report.
    fn in_one_pass(kernels: &[KernelProfile], machine: Option<&Machine>) -> AnalyzeReport {
        let guidance = machine.map(|m| guide_all(kernels, m));
        let per_inst = machine.and_then(|m| m.flops_per_tensor_inst);
        let (s, tpw) = (sizes(machine), threads_per_warp(machine));
        let reports = kernels.iter().enumerate().map(|(i, k)| kernel_report(i, k, machine, guidance.as_ref().and_then(|gs| gs[i].clone()), per_inst, &s, tpw)).collect();
        let times: Vec<f64> = kernels.iter().filter_map(|k| k.time_s()).collect();
        AnalyzeReport {
            files: Vec::new(),
            device: None,
            machine: machine.map(MachineSummary::of),
            kernels: reports,
            transfers: Vec::new(),
            total_time_s: (!times.is_empty()).then(|| times.iter().sum()),
            whole_run_speedup: guidance.as_ref().and_then(|g| whole_run_speedup(kernels, g)),
            warnings: Vec::new(),
        }
    }

    /// The report built step by step (as the web app builds a large one, a part per task) is
    /// the report of one pass, to the bit, wherever the steps cut it: inside the guidance pass,
    /// at its end (where the ranks are set), inside the reports' pass.
    #[test]
    fn a_report_built_in_steps_is_the_report_of_one_pass() {
        let kernels = vec![
            KernelProfile::from_counters("gemm", &[(Counter::TimeS, 1e-3), (Counter::Fp64Fma, 2e9), (Counter::DramBytes, 4e8)]),
            KernelProfile::from_counters("copy", &[(Counter::TimeS, 3e-3), (Counter::DramBytes, 2.4e9), (Counter::Fp32Fma, 0.0)]),
            KernelProfile::from_counters("untimed", &[(Counter::Fp32Fma, 1e6)]),
            KernelProfile::from_counters("stencil", &[(Counter::TimeS, 2e-3), (Counter::Fp32Add, 1e9), (Counter::DramBytes, 1e9)]),
            KernelProfile::from_counters("tiny", &[(Counter::TimeS, 1e-6), (Counter::DramBytes, 1e3)]),
        ];
        let v100 = catalogue::v100();
        for machine in [Some(&v100), None] {
            let whole = in_one_pass(&kernels, machine);
            assert_eq!(analyze_kernels(&kernels, machine), whole);
            for step in [1, 2, 3, 4, 5, 6, 9, 10, 11] {
                let mut b = KernelsReport::new(&kernels, machine);
                let mut steps = 1;
                while !b.step(step) {
                    steps += 1;
                }
                // Each kernel counts twice with a machine (guidance, report), once without.
                let work = kernels.len() * if machine.is_some() { 2 } else { 1 };
                assert_eq!(steps, work.div_ceil(step), "steps of {step}");
                assert_eq!(b.finish(), whole, "steps of {step}");
            }
        }
        // The guidance was ranked across all five, not per step: with V100, the timed kernels
        // below their roofs have ranks 1, 2, … in order of their savings.
        let report = analyze_kernels(&kernels, Some(&v100));
        let mut ranks: Vec<usize> = report.kernels.iter().filter_map(|k| k.guidance.as_ref()?.rank).collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (1..=ranks.len()).collect::<Vec<_>>());
        assert!(ranks.len() >= 3, "{ranks:?}");
        // 1 + 3 + 2 ms + 1 µs.
        assert_eq!(report.total_time_s, Some(1e-3 + 3e-3 + 2e-3 + 1e-6));
    }
}
