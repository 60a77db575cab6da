//! Comparing runs: "Add a run…" loads files as a new run beside the current one (the current
//! kernels become the previous run, so the chart's arrows point from old to new), "Clear
//! runs" drops the earlier ones. The numbers (which kernels match, the % changes) come from
//! `roofline_engine::compare`; this module only holds the controls and the text.

use crate::state::{no_kernels, AppState};
use crate::{files, perf};
use leptos::prelude::*;
use crate::reactive::{flag, handler, text};
use leptos::task::spawn_local;
use roofline_engine::compare::{changes_with, Change};
use roofline_engine::{selection, KernelProfile};

/// Earlier runs as the chart shows them: each run through the same name filter and top-N
/// as the current kernels, so a filtered chart does not draw paths of hidden kernels. Reads
/// signals (tracks them inside an effect).
pub fn shown_runs(state: AppState) -> Vec<(String, Vec<KernelProfile>)> {
    let (filter, top_n) = (state.filter.get(), state.top_n.get());
    state.runs.with(|runs| {
        runs.iter()
            .map(|(name, ks)| {
                let keep = selection::visible(ks, &filter, top_n).unwrap_or_default();
                (name.clone(), keep.iter().filter_map(|&i| ks.get(i).cloned()).collect())
            })
            .collect()
    })
}

/// Each current kernel's change since the previous run (parallel to `state.kernels`);
/// `None` for a kernel the previous run does not have, all `None` without runs.
pub fn changes_by_kernel(state: AppState) -> Vec<Option<Change>> {
    let per_inst = state.machine.with(|m| m.flops_per_tensor_inst);
    state.kernels.with(|ks| {
        let found = state.runs.with(|runs| runs.last().map(|(_, prev)| changes_with(prev, ks, per_inst)).unwrap_or_default());
        let mut by_name: std::collections::HashMap<&str, Change> = found.iter().map(|c| (c.name.as_str(), c.clone())).collect();
        ks.iter().map(|k| by_name.remove(k.name.as_str())).collect()
    })
}

/// A fraction as a signed percentage ("-50.0%", "+100.0%"), "–" when unknown.
pub fn percent(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite()).map_or_else(|| "–".into(), |v| format!("{:+.1}%", 100.0 * v))
}

/// The table cell: "Δ time / Δ perf".
pub fn cell(c: Option<&Change>) -> String {
    c.map_or_else(|| "new".into(), |c| format!("{} / {}", percent(c.time_change), percent(c.perf_change)))
}

/// The tooltip line.
pub fn tooltip_line(c: &Change) -> String {
    format!("vs previous run: time {}, FLOP/s {}", percent(c.time_change), percent(c.perf_change))
}

/// Loads the files picked in `input` as a new run: on success the current kernels (and their
/// source as the run's name) become the latest earlier run; on failure nothing changes and
/// the alert says why, as for any load. The input is emptied once read, so picking the same
/// files again is a new run too (not before: emptying it empties its live `FileList`).
fn add_run(state: AppState, input: web_sys::HtmlInputElement) {
    let Some(list) = input.files().filter(|l| l.length() > 0) else { return };
    perf::mark("roofline:load-start");
    state.loading_mark.set(true);
    state.progress.set(Some(0.0));
    spawn_local(async move {
        let result = files::load_file_list(list, |done, total| state.progress.set(Some(if total > 0.0 { done / total } else { 1.0 }))).await;
        input.set_value("");
        state.progress.set(None);
        match result {
            Ok(ds) if !ds.kernels.is_empty() => {
                let previous = state.kernels.get_untracked();
                if !previous.is_empty() {
                    let name = state.source.get_untracked();
                    state.runs.update(|r| r.push((name, previous)));
                }
                state.show_kernels(ds);
            }
            Ok(ds) => state.load_failed(no_kernels(&ds)),
            Err(e) => state.load_failed(e),
        }
    });
}

/// "Add a run…", "Clear runs" and which runs are compared.
#[component]
pub fn RunControls(state: AppState) -> impl IntoView {
    let none = flag(move || state.runs.with(Vec::is_empty));
    let status = text(move || {
        state.runs.with(|runs| match runs.len() {
            0 => String::new(),
            n => format!("Comparing {} runs: {} → current", n + 1, runs.iter().map(|(name, _)| short(name)).collect::<Vec<_>>().join(" → ")),
        })
    });
    let status_title = status.clone();
    view! {
        <div class="run-controls">
            <label class="file-button add-run" title="Load files as a new run; the current data becomes the previous run">
                "Add a run…"
                <input
                    type="file"
                    id="add-run-input"
                    multiple
                    aria-label="Add a run to compare with the current data"
                    on:change=handler(move |ev: web_sys::Event| {
                        add_run(state, event_target(&ev));
                    })
                />
            </label>
            <button type="button" class="clear-runs" hidden=none.clone() on:click=handler(move |_: web_sys::MouseEvent| state.runs.set(Vec::new()))>"Clear runs"</button>
            <span class="runs-status" aria-live="polite" hidden=none title=status_title>{status}</span>
        </div>
    }
}

/// A run's name cut to a readable length (the full list is in the title).
fn short(name: &str) -> String {
    const MAX: usize = 32;
    if name.chars().count() <= MAX {
        name.to_string()
    } else {
        format!("{}…", name.chars().take(MAX - 1).collect::<String>())
    }
}
