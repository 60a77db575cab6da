//! Prints everything an Nsight Compute report holds that the engine reads: the session
//! (tool versions, command line, device attributes) and, per result, the kernel, its launch
//! configuration and every metric as `name = value` (instanced metrics summarised).
//!
//! ```sh
//! cargo run -p roofline-engine --example ncu_rep_dump -- report.ncu-rep [more.ncu-rep …] [--out DIR]
//! ```
//! Without `--out` the dump goes to standard output; with it, to `DIR/<file name>.txt`.

use roofline_engine::import::ncu_rep::messages::{Dim3, MetricValue};
use roofline_engine::import::ncu_rep::report::{read_all, ResultView, Session};
use roofline_engine::import::ncu_rep::value::{value_of, Metric, Value};
use std::fmt::Write as _;

fn dim(d: Option<&Dim3>) -> String {
    d.map_or("-".into(), |d| format!("({}, {}, {})", d.x.unwrap_or(0), d.y.unwrap_or(0), d.z.unwrap_or(0)))
}

fn value_text(v: Value<'_>) -> String {
    match v {
        Value::Number(n) => format!("{n}"),
        Value::Text(t) => format!("{t:?}"),
        Value::None => "(none)".into(),
    }
}

fn raw_kind(v: Option<&MetricValue>) -> &'static str {
    match v {
        Some(MetricValue { text: Some(_), .. }) => "string",
        Some(MetricValue { double: Some(_), .. }) => "double",
        Some(MetricValue { float: Some(_), .. }) => "float",
        Some(MetricValue { uint64: Some(_), .. }) => "uint64",
        Some(MetricValue { uint32: Some(_), .. }) => "uint32",
        _ => "none",
    }
}

fn metric_line(m: &Metric<'_>) -> String {
    let mut s = format!("{} = {} [{}]", m.name, value_text(m.value()), raw_kind(m.result.value.as_ref()));
    let inst = m.instances();
    if inst.count > 0 {
        let first: Vec<String> = m
            .result
            .instances
            .iter()
            .take(4)
            .map(|i| format!("{}: {}", value_text(value_of(i.correlation.as_ref())), value_text(value_of(i.value.as_ref()))))
            .collect();
        let _ = write!(
            s,
            "  {{{} instances, {} numeric; min {} max {} sum {}; first: {}{}}}",
            inst.count,
            inst.finite,
            inst.min.map_or("-".into(), |v| v.to_string()),
            inst.max.map_or("-".into(), |v| v.to_string()),
            inst.sum,
            first.join(", "),
            if inst.count > 4 { ", …" } else { "" }
        );
    }
    s
}

fn session_text(file: &str, s: &Session, results: u64) -> String {
    let mut out = format!("# {file}\n# {}\n# results: {results}\n", s.describe());
    for (p, v) in &s.versions {
        let _ = writeln!(out, "# version: {p} = {v}");
    }
    if let Some(c) = &s.command_line {
        let _ = writeln!(out, "# command line: {c}");
    }
    if let Some(t) = s.creation_time_s {
        let _ = writeln!(out, "# created (s since 1970): {t}");
    }
    for d in &s.devices {
        let _ = writeln!(out, "\n## session device {} {:?} ({} attributes)", d.id.unwrap_or(0), d.name.as_deref().unwrap_or(""), d.attributes.len());
        let mut attrs: Vec<_> = d.attributes.iter().map(|a| (a.name.as_deref().unwrap_or(""), value_text(value_of(a.value.as_ref())), raw_kind(a.value.as_ref()))).collect();
        attrs.sort();
        for (n, v, k) in attrs {
            let _ = writeln!(out, "{n} = {v} [{k}]");
        }
    }
    out
}

fn result_text(r: &ResultView<'_>) -> String {
    let p = r.result;
    let mut out = format!(
        "\n## result {} (ID {}) at byte {}\nkernel: {}\nfunction: {}\nmangled: {}\ngrid (as stored): {}  block: {}  context {} stream {}\n",
        r.index + 1,
        r.index,
        r.at,
        r.kernel_name(),
        p.function_name.as_deref().unwrap_or(""),
        p.mangled_name.as_deref().unwrap_or(""),
        dim(p.grid.as_ref()),
        dim(p.block.as_ref()),
        p.context_id.map_or("-".into(), |v| v.to_string()),
        p.stream_id.map_or("-".into(), |v| v.to_string()),
    );
    let mut lines: Vec<String> = r.metrics().map(|m| m.map_or_else(|e| format!("!! {e}"), |m| metric_line(&m))).collect();
    lines.sort();
    let _ = writeln!(out, "metrics: {}", lines.len());
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let out_dir = args.iter().position(|a| a == "--out").map(|i| {
        let dir = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        dir
    });
    for path in &args {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        };
        let name = std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let mut body = String::new();
        let read = read_all(&name, &bytes, &mut |r| {
            body.push_str(&result_text(r));
            Ok(())
        });
        let text = match read {
            Ok((session, cut)) => {
                let results = body.matches("\n## result ").count() as u64;
                let mut t = session_text(&name, &session, results);
                for w in cut {
                    let _ = writeln!(t, "# warning: {w}");
                }
                t + &body
            }
            Err(e) => format!("# {name}\n# error: {e}\n{body}"),
        };
        match &out_dir {
            Some(dir) => {
                let target = std::path::Path::new(dir).join(format!("{name}.txt"));
                if let Err(e) = std::fs::write(&target, text) {
                    eprintln!("{}: {e}", target.display());
                    std::process::exit(1);
                }
            }
            None => print!("{text}"),
        }
    }
}
