//! The analyze report ([`AnalyzeReport`]) and machines as JSON without serde, for the web app
//! (why: `crate::json`). The text is exactly `serde_json::to_string_pretty` of the same value,
//! the CLI's `analyze --json` contract (docs/CLI.md): members in declaration order, enum
//! values by their serde names. `engine/tests/report_json.rs` compares the two on every
//! sample, with and without a machine, so a field added to a report struct and not here fails
//! a test.

use crate::domain::counters::Counters;
use crate::domain::FileInfo;
use crate::json::Writer;
use crate::model::guidance::{Bound, BoundKind, Guidance};
use crate::model::instruction::InstructionPoint;
use crate::model::transfers::{TransferKind, TransferPoint};
use crate::model::walls::{LdStPoint, WallMemory};
use crate::model::{Ceiling, Machine, MemoryLevel, PeakSet, RooflinePoint};
use crate::report::{AnalyzeReport, KernelReport, MachineSummary};
use crate::share::{compute_id, level_id};

/// `roofline analyze --json`, pretty-printed.
pub fn analyze(r: &AnalyzeReport) -> String {
    let mut w = Writer::new();
    w.begin_object();
    w.key("files");
    list(&mut w, &r.files, file);
    w.key("device");
    match &r.device {
        Some(d) => {
            w.begin_object();
            w.key("name");
            w.opt_str(d.name.as_deref());
            w.key("arch");
            w.opt_str(d.arch.as_deref());
            w.key("sm_count");
            match d.sm_count {
                Some(n) => w.u64(n.into()),
                None => w.null(),
            }
            w.opt_f64_field("sm_clock_hz", d.sm_clock_hz);
            w.end_object();
        }
        None => w.null(),
    }
    w.key("machine");
    match &r.machine {
        Some(m) => machine_summary(&mut w, m),
        None => w.null(),
    }
    w.key("kernels");
    list(&mut w, &r.kernels, kernel);
    w.key("transfers");
    list(&mut w, &r.transfers, transfer);
    w.opt_f64_field("total_time_s", r.total_time_s);
    w.opt_f64_field("whole_run_speedup", r.whole_run_speedup);
    w.key("warnings");
    w.begin_array();
    for s in &r.warnings {
        w.item();
        w.string(s);
    }
    w.end_array();
    w.end_object();
    w.finish()
}

/// An array of `items`, each written by `write`.
pub(crate) fn list<T>(w: &mut Writer, items: &[T], write: fn(&mut Writer, &T)) {
    w.begin_array();
    for x in items {
        w.item();
        write(w, x);
    }
    w.end_array();
}

fn opt_usize(w: &mut Writer, key: &str, v: Option<usize>) {
    w.key(key);
    match v {
        Some(v) => w.u64(v as u64),
        None => w.null(),
    }
}

fn file(w: &mut Writer, f: &FileInfo) {
    w.begin_object();
    w.str_field("path", &f.path);
    w.str_field("format", f.format);
    if let Some(tool) = &f.tool {
        w.str_field("tool", tool);
    }
    w.end_object();
}

fn machine_summary(w: &mut Writer, m: &MachineSummary) {
    w.begin_object();
    w.str_field("id", &m.id);
    w.str_field("name", &m.name);
    w.str_field("source", &m.source);
    w.key("arch");
    w.opt_str(m.arch.as_deref());
    w.key("chosen");
    w.opt_str(m.chosen.map(|c| match c {
        crate::choice::Chosen::Profile => "profile",
        crate::choice::Chosen::Option => "option",
        crate::choice::Chosen::File => "file",
    }));
    w.key("clock");
    w.opt_str(m.clock.map(|c| match c {
        crate::choice::ClockBasis::Measured => "measured",
        crate::choice::ClockBasis::Base => "base",
        crate::choice::ClockBasis::Boost => "boost",
        crate::choice::ClockBasis::Given => "given",
        crate::choice::ClockBasis::Stated => "stated",
    }));
    w.opt_f64_field("clock_hz", m.clock_hz);
    w.opt_f64_field("flops_per_tensor_inst", m.flops_per_tensor_inst);
    w.key("compute");
    list(w, &m.compute, ceiling);
    w.key("memory");
    list(w, &m.memory, memory_level);
    w.key("sentence");
    w.opt_str(m.sentence.as_deref());
    w.end_object();
}

fn ceiling(w: &mut Writer, c: &Ceiling) {
    w.begin_object();
    w.str_field("name", &c.name);
    w.str_field("kind", compute_id(c.kind));
    w.key("data_type");
    w.opt_str(c.data_type.map(|d| d.id()));
    w.f64_field("flops_per_s", c.flops_per_s);
    w.end_object();
}

fn memory_level(w: &mut Writer, l: &MemoryLevel) {
    w.begin_object();
    w.str_field("name", &l.name);
    w.str_field("level", level_id(l.level));
    w.f64_field("bytes_per_s", l.bytes_per_s);
    w.end_object();
}

/// A whole machine (as in a `.roofline.json` view file).
pub(crate) fn machine(w: &mut Writer, m: &Machine) {
    w.begin_object();
    w.str_field("id", &m.id);
    w.str_field("name", &m.name);
    w.str_field("source", &m.source);
    w.key("vendor");
    w.opt_str(m.vendor.map(|v| match v {
        crate::domain::Vendor::Nvidia => "nvidia",
        crate::domain::Vendor::Amd => "amd",
        crate::domain::Vendor::Intel => "intel",
    }));
    w.key("arch");
    w.opt_str(m.arch.as_deref());
    w.key("generation");
    w.opt_str(m.generation.as_deref());
    w.key("sm_count");
    match m.sm_count {
        Some(n) => w.u64(n.into()),
        None => w.null(),
    }
    w.opt_f64_field("memory_bytes", m.memory_bytes);
    w.opt_f64_field("l2_bytes", m.l2_bytes);
    w.key("compute");
    list(w, &m.compute, ceiling);
    w.key("memory");
    list(w, &m.memory, memory_level);
    w.opt_f64_field("flops_per_tensor_inst", m.flops_per_tensor_inst);
    w.opt_f64_field("clock_hz", m.clock_hz);
    w.opt_f64_field("base_clock_hz", m.base_clock_hz);
    w.opt_f64_field("boost_clock_hz", m.boost_clock_hz);
    w.key("issue");
    match &m.issue {
        Some(i) => {
            w.begin_object();
            w.u64_field("compute_units", i.compute_units.into());
            w.u64_field("schedulers_per_unit", i.schedulers_per_unit.into());
            w.f64_field("inst_per_cycle_per_scheduler", i.inst_per_cycle_per_scheduler);
            w.u64_field("threads_per_warp", i.threads_per_warp.into());
            w.end_object();
        }
        None => w.null(),
    }
    w.key("transaction_bytes");
    match &m.transaction_bytes {
        Some(t) => {
            w.begin_object();
            w.f64_field("sector_bytes", t.sector_bytes);
            w.f64_field("shared_bytes", t.shared_bytes);
            w.end_object();
        }
        None => w.null(),
    }
    for (key, set) in [("theoretical", &m.theoretical), ("empirical", &m.empirical)] {
        w.key(key);
        match set {
            Some(s) => peak_set(w, s),
            None => w.null(),
        }
    }
    w.key("links");
    w.begin_array();
    for l in &m.links {
        w.item();
        w.begin_object();
        w.str_field("name", &l.name);
        w.f64_field("bytes_per_s", l.bytes_per_s);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

fn peak_set(w: &mut Writer, s: &PeakSet) {
    w.begin_object();
    w.str_field("source", &s.source);
    w.key("compute");
    list(w, &s.compute, ceiling);
    w.key("memory");
    list(w, &s.memory, memory_level);
    w.end_object();
}

/// Measured counters by stable name, in canonical order (`Counters`' serde form).
pub(crate) fn counters(w: &mut Writer, c: &Counters) {
    w.begin_object();
    for (counter, v) in c.iter() {
        w.f64_field(counter.key(), v);
    }
    w.end_object();
}

fn kernel(w: &mut Writer, k: &KernelReport) {
    w.begin_object();
    w.str_field("name", &k.name);
    w.u64_field("launches", k.launches);
    w.opt_f64_field("time_s", k.time_s);
    w.key("flops");
    w.begin_object();
    w.opt_f64_field("fp64", k.flops.fp64);
    w.opt_f64_field("fp32", k.flops.fp32);
    w.opt_f64_field("fp16", k.flops.fp16);
    w.opt_f64_field("tensor", k.flops.tensor);
    w.opt_f64_field("total", k.flops.total);
    w.key("matrix");
    w.begin_object();
    let x = &k.flops.matrix;
    for (key, v) in [("fp64", x.fp64), ("tf32", x.tf32), ("fp32", x.fp32), ("fp16", x.fp16), ("bf16", x.bf16), ("fp8", x.fp8), ("fp6", x.fp6), ("fp4", x.fp4), ("int8", x.int8)] {
        w.opt_f64_field(key, v);
    }
    w.end_object();
    w.end_object();
    w.key("bytes");
    w.begin_object();
    w.opt_f64_field("l1", k.bytes.l1);
    w.opt_f64_field("l2", k.bytes.l2);
    w.opt_f64_field("dram", k.bytes.dram);
    w.opt_f64_field("shared", k.bytes.shared);
    w.end_object();
    w.opt_f64_field("warp_inst", k.warp_inst);
    w.opt_f64_field("thread_inst", k.thread_inst);
    w.opt_f64_field("thread_inst_pred_on", k.thread_inst_pred_on);
    w.key("txn");
    w.begin_object();
    w.opt_f64_field("global", k.txn.global);
    w.opt_f64_field("local", k.txn.local);
    w.opt_f64_field("shared", k.txn.shared);
    w.opt_f64_field("l2", k.txn.l2);
    w.opt_f64_field("dram", k.txn.dram);
    w.end_object();
    w.opt_f64_field("global_ldst_inst", k.global_ldst_inst);
    w.opt_f64_field("global_ldst_req", k.global_ldst_req);
    w.opt_f64_field("shared_ldst_inst", k.shared_ldst_inst);
    w.opt_f64_field("tensor_inst", k.tensor_inst);
    w.opt_f64_field("int_ops", k.int_ops);
    w.opt_f64_field("flops_per_s", k.flops_per_s);
    w.key("points");
    list(w, &k.points, roofline_point);
    let i = &k.instruction;
    w.key("instruction");
    w.begin_object();
    w.opt_f64_field("warp_inst_per_s", i.warp_inst_per_s);
    w.opt_f64_field("thread_inst_per_s", i.thread_inst_per_s);
    w.opt_f64_field("predication_ratio", i.predication_ratio);
    w.opt_f64_field("tensor_inst_per_s", i.tensor_inst_per_s);
    w.key("points");
    list(w, &i.points, instruction_point);
    for (key, p) in [("global_ldst", &i.global_ldst), ("shared_ldst", &i.shared_ldst)] {
        w.key(key);
        match p {
            Some(p) => ldst_point(w, p),
            None => w.null(),
        }
    }
    w.end_object();
    w.key("guidance");
    match &k.guidance {
        Some(g) => guidance(w, g),
        None => w.null(),
    }
    w.str_field("summary", &k.summary);
    w.end_object();
}

fn roofline_point(w: &mut Writer, p: &RooflinePoint) {
    w.begin_object();
    w.u64_field("kernel", p.kernel as u64);
    w.str_field("level", level_id(p.level));
    w.f64_field("flops_per_byte", p.flops_per_byte);
    w.f64_field("flops_per_s", p.flops_per_s);
    w.end_object();
}

fn instruction_point(w: &mut Writer, p: &InstructionPoint) {
    w.begin_object();
    w.str_field("level", level_id(p.level));
    w.f64_field("txn", p.txn);
    w.f64_field("warp_inst_per_txn", p.warp_inst_per_txn);
    w.f64_field("warp_inst_per_s", p.warp_inst_per_s);
    w.opt_f64_field("thread_inst_per_s", p.thread_inst_per_s);
    w.end_object();
}

fn ldst_point(w: &mut Writer, p: &LdStPoint) {
    w.begin_object();
    w.str_field(
        "memory",
        match p.memory {
            WallMemory::Global => "global",
            WallMemory::Shared => "shared",
        },
    );
    w.f64_field("inst_per_txn", p.inst_per_txn);
    w.opt_f64_field("inst_per_s", p.inst_per_s);
    w.end_object();
}

fn guidance(w: &mut Writer, g: &Guidance) {
    w.begin_object();
    w.key("binding");
    bound(w, &g.binding);
    w.key("bounds");
    list(w, &g.bounds, bound);
    w.f64_field("roof_time_s", g.roof_time_s);
    w.f64_field("attained_fraction", g.attained_fraction);
    w.f64_field("headroom", g.headroom);
    w.key("above_roof");
    w.bool(g.above_roof);
    w.f64_field("potential_saving_s", g.potential_saving_s);
    w.opt_f64_field("potential_saving_fraction", g.potential_saving_fraction);
    opt_usize(w, "rank", g.rank);
    w.key("not_assessed");
    w.begin_array();
    for n in &g.not_assessed {
        w.item();
        w.string(n);
    }
    w.end_array();
    w.end_object();
}

fn bound(w: &mut Writer, b: &Bound) {
    w.begin_object();
    w.str_field("name", &b.name);
    w.str_field(
        "kind",
        match b.kind {
            BoundKind::Compute => "compute",
            BoundKind::Memory => "memory",
            BoundKind::Issue => "issue",
        },
    );
    w.key("level");
    w.opt_str(b.level.map(level_id));
    w.key("compute");
    w.opt_str(b.compute.map(compute_id));
    w.key("data_type");
    w.opt_str(b.data_type.map(|d| d.id()));
    w.f64_field("time_s", b.time_s);
    w.end_object();
}

fn transfer(w: &mut Writer, t: &TransferPoint) {
    w.begin_object();
    w.str_field("name", &t.name);
    w.str_field(
        "kind",
        match t.kind {
            TransferKind::HostToDevice => "host_to_device",
            TransferKind::DeviceToHost => "device_to_host",
            TransferKind::DeviceToDevice => "device_to_device",
            TransferKind::PeerToPeer => "peer_to_peer",
            TransferKind::Memset => "memset",
            TransferKind::Other => "other",
        },
    );
    w.u64_field("count", t.count);
    w.opt_f64_field("bytes", t.bytes);
    w.opt_f64_field("time_s", t.time_s);
    w.opt_f64_field("bytes_per_s", t.bytes_per_s);
    w.key("roof");
    w.opt_str(t.roof.as_deref());
    w.opt_f64_field("roof_bytes_per_s", t.roof_bytes_per_s);
    w.opt_f64_field("attained_fraction", t.attained_fraction);
    w.end_object();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Level;

    #[test]
    fn enum_names_are_serde_names() {
        for l in Level::ALL {
            assert_eq!(serde_json::to_value(l).ok(), Some(serde_json::Value::from(level_id(l))));
        }
        for k in [crate::model::ComputeKind::Fp64, crate::model::ComputeKind::Tensor, crate::model::ComputeKind::Int] {
            assert_eq!(serde_json::to_value(k).ok(), Some(serde_json::Value::from(compute_id(k))));
        }
    }

    #[test]
    fn every_catalogue_machine_as_serde_writes_it() {
        for m in crate::model::catalogue::all() {
            let mut w = Writer::new();
            machine(&mut w, &m);
            assert_eq!(w.finish(), serde_json::to_string_pretty(&m).unwrap_or_default(), "{}", m.id);
        }
    }
}
