//! `roofline compare BEFORE… --to AFTER…` (issue 44): the report of two runs compared, as JSON
//! (docs/CLI.md, "compare") and as a table. The comparison itself is the engine's
//! (`roofline_engine::compare::runs`); this module reads each run's files, chooses each run's
//! machine as `analyze` does, and prints.

use roofline_engine::compare::pairing::Which;
use roofline_engine::compare::{compare_runs, Comparison, PairError, Run, UserPairs};
use roofline_engine::domain::short_names::distinct_display_names;
use roofline_engine::domain::FileInfo;
use roofline_engine::report::{DeviceSummary, MachineSummary};
use roofline_engine::units::si;
use serde::Serialize;

/// `roofline compare --json`: each run as `analyze --json` describes its files, device and
/// machine, and the comparison.
#[derive(Debug, Serialize)]
pub struct CompareReport {
    pub before: RunSummary,
    pub after: RunSummary,
    pub comparison: Comparison,
}

/// One run: its files, the device they name, the machine it is judged against (`null`
/// without one: its kernels are compared in time only), and what to know about that choice.
#[derive(Debug, Serialize)]
pub struct RunSummary {
    pub files: Vec<FileInfo>,
    pub device: Option<DeviceSummary>,
    pub machine: Option<MachineSummary>,
    pub warnings: Vec<String>,
}

impl RunSummary {
    fn of(run: &Run) -> RunSummary {
        let warnings = match &run.choice {
            Some(c) => c.warnings.clone(),
            None if !run.dataset.kernels.is_empty() => vec![roofline_engine::choice::no_machine_reason(&run.dataset)],
            None => Vec::new(),
        };
        RunSummary {
            files: run.dataset.files.clone(),
            device: DeviceSummary::of(&run.dataset),
            machine: run.choice.as_ref().map(MachineSummary::of_choice),
            warnings,
        }
    }
}

/// The report of two runs, the user's pairs applied. Errors: a `--pair`/`--unpair` name that
/// finds no kernel, or several (the message says which run).
pub fn report(before: &Run, after: &Run, user: &UserPairs) -> Result<CompareReport, String> {
    let comparison = compare_runs(before, after, user).map_err(|e| {
        // The files of the run the name was looked for in.
        let files = |run: &Run| run.dataset.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ");
        match &e {
            PairError::NotFound { which, .. } | PairError::Ambiguous { which, .. } | PairError::Twice { which, .. } => {
                format!("--pair: {e} ({})", files(if *which == Which::Before { before } else { after }))
            }
            PairError::UnpairNotFound { .. } => format!("{e} ({} | {})", files(before), files(after)),
        }
    })?;
    Ok(CompareReport { before: RunSummary::of(before), after: RunSummary::of(after), comparison })
}

fn opt(v: Option<f64>, unit: &str) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{}{unit}", si(v)))
}

fn percent(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{:.0}%", v * 100.0))
}

/// At most `n` characters, an ellipsis marking the cut.
fn cut(s: &str, n: usize) -> String {
    if s.chars().count() > n {
        s.chars().take(n - 1).chain(['…']).collect()
    } else {
        s.to_string()
    }
}

/// The table: each run's files and machine, the pairs (largest saving first), added, removed,
/// and the whole run. Kernels by their short display names (distinct within their run), as
/// the app shows them; `--json` has the full names.
pub fn render_text(r: &CompareReport) -> String {
    let mut out = String::new();
    for (label, run) in [("before", &r.before), ("after", &r.after)] {
        let files: Vec<&str> = run.files.iter().map(|f| f.path.as_str()).collect();
        out.push_str(&format!("{label}: {}\n", files.join(", ")));
        match &run.machine {
            Some(m) => out.push_str(&format!("  {}\n", m.sentence.clone().unwrap_or_else(|| format!("roofs of {} [{}]", m.name, m.id)))),
            None => out.push_str("  no machine: compared in time only (give --machine ID for roofs)\n"),
        }
        for w in &run.warnings {
            out.push_str(&format!("  note: {w}\n"));
        }
    }
    let c = &r.comparison;
    // Short names within each run, so the two sides read as the app shows them.
    let short = |names: Vec<&str>| -> std::collections::HashMap<String, String> {
        let shorts = distinct_display_names(&names);
        names.iter().map(|n| n.to_string()).zip(shorts).collect()
    };
    let before_names = short(c.pairs.iter().map(|p| p.before.as_str()).chain(c.removed.iter().map(|u| u.name.as_str())).collect());
    let after_names = short(c.pairs.iter().map(|p| p.after.as_str()).chain(c.added.iter().map(|u| u.name.as_str())).collect());
    let name_of = |map: &std::collections::HashMap<String, String>, full: &str| map.get(full).cloned().unwrap_or_else(|| full.to_string());
    out.push_str(&format!(
        "\n{:<32} {:<32} {:>10} {:>10} {:>8} {:>13} {:>10} {:>7}  {}\n",
        "before kernel", "after kernel", "before", "after", "speedup", "% roof", "saved", "of run", "paired by"
    ));
    for p in &c.pairs {
        let b = name_of(&before_names, &p.before);
        let a = name_of(&after_names, &p.after);
        out.push_str(&format!(
            "{:<32} {:<32} {:>10} {:>10} {:>8} {:>13} {:>10} {:>7}  {}\n",
            cut(&b, 32),
            if a == b { "=".to_string() } else { cut(&a, 32) },
            opt(p.before_time_s, "s"),
            opt(p.after_time_s, "s"),
            p.speedup.map_or("-".into(), |s| format!("{s:.2}x")),
            format!("{} → {}", percent(p.before_attained), percent(p.after_attained)),
            opt(p.saved_s, "s"),
            percent(p.share_of_run),
            p.matched_by.label(),
        ));
    }
    for (title, list, names) in [("added (only after)", &c.added, &after_names), ("removed (only before)", &c.removed, &before_names)] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title}:\n"));
        for u in list.iter() {
            out.push_str(&format!(
                "  {:<48} {:>10} {:>7} of its run, {} of roof\n",
                cut(&name_of(names, &u.name), 48),
                opt(u.time_s, "s"),
                percent(u.share_of_run),
                percent(u.attained)
            ));
        }
    }
    let mut run = format!(
        "\nrun: {}s → {}s of kernel time, {}; pairs saved {}s",
        si(c.before_time_s),
        si(c.after_time_s),
        c.run_speedup.map_or("no time after".into(), |s| format!("speed-up {s:.2}x")),
        si(c.paired_saved_s)
    );
    if !c.removed.is_empty() {
        run.push_str(&format!(", removed kernels {}s", si(c.removed_time_s)));
    }
    if !c.added.is_empty() {
        run.push_str(&format!(", added kernels cost {}s", si(c.added_time_s)));
    }
    out.push_str(&run);
    out.push('\n');
    out
}
