//! The catalogue as the Markdown table of docs/MODEL.md (a test keeps the two equal).

use crate::domain::DataType;
use crate::model::machine::{Basis, ComputeKind, Level, Machine};

/// Four significant figures at most, no trailing zeros.
fn num(x: f64) -> String {
    let decimals = if x >= 1000.0 {
        0
    } else if x >= 100.0 {
        1
    } else if x >= 10.0 {
        2
    } else {
        3
    };
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn vector(m: &Machine, kind: ComputeKind) -> String {
    m.compute_ceiling(kind).map_or("—".into(), |c| num(c.flops_per_s / 1e12))
}

fn on_chip(m: &Machine) -> &'static str {
    let has = |set: Option<&crate::model::PeakSet>| set.is_some_and(|s| s.memory.iter().any(|l| matches!(l.level, Level::L1 | Level::Shared | Level::L2)));
    if has(m.empirical.as_ref()) {
        "measured"
    } else if has(m.theoretical.as_ref()) {
        "published"
    } else {
        "absent"
    }
}

/// One row per machine: id, name, arch, SMs, base/boost clock, vector and matrix peaks
/// (data sheet, TFLOP/s or TOPS, at the boost clock), DRAM (data sheet, and measured where
/// cited), L2 size, and where the L1/shared/L2 bandwidths come from.
pub fn markdown(machines: &[Machine]) -> String {
    let mut out = String::from(
        "| id | machine | arch | SMs | base / boost MHz | FP64 | FP32 | FP16 | dense matrix (TFLOP/s; INT8 TOPS) | DRAM GB/s | L2 (CPU: L3) | L1/L2 BW |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for m in machines {
        let sheet = m.with_basis(Basis::Theoretical);
        let matrix: Vec<String> = DataType::ALL
            .iter()
            .filter_map(|&t| sheet.matrix_ceiling(t).map(|c| format!("{} {}", t.label(), num(c.flops_per_s / 1e12))))
            .collect();
        let dram = sheet.memory_level(Level::Dram).map_or("—".into(), |l| num(l.bytes_per_s / 1e9));
        let measured = m.empirical.as_ref().and_then(|e| e.memory.iter().find(|l| l.level == Level::Dram)).map(|l| format!(" ({} measured)", num(l.bytes_per_s / 1e9)));
        let mhz = |hz: Option<f64>| hz.map_or("—".into(), |h| format!("{:.0}", h / 1e6));
        let l2 = m.l2_bytes.map_or("—".into(), |b| format!("{} MiB", num(b / (1024.0 * 1024.0))));
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} / {} | {} | {} | {} | {} | {}{} | {} | {} |\n",
            m.id,
            m.name,
            m.arch.as_deref().unwrap_or("—"),
            m.sm_count.map_or("—".into(), |n| n.to_string()),
            mhz(m.base_clock_hz),
            mhz(m.boost_clock_hz),
            vector(&sheet, ComputeKind::Fp64),
            vector(&sheet, ComputeKind::Fp32),
            vector(&sheet, ComputeKind::Fp16),
            if matrix.is_empty() { "—".into() } else { matrix.join(", ") },
            dram,
            measured.unwrap_or_default(),
            l2,
            on_chip(m),
        ));
    }
    out
}
