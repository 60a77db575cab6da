//! Comparing runs (issue 44): "Add a run…" loads files as a new run beside the current one
//! (the current kernels, with their machine, become the previous run; the new files get a
//! machine of their own, chosen as for any load), "Clear runs" drops the earlier ones. Which
//! kernel is which comes from the engine's `compare::pair_manual` (exact name, demangled,
//! short name, the user's pairs first); the numbers (speed-ups, % of each run's own roof, the
//! run's time ratio and what each pair bought) from `compare::compare`. This module holds the
//! controls and the text; kernel names are shown as text.

use crate::reactive::{flag, handler, text};
use crate::state::{no_kernels, AppState, Run};
use crate::{files, perf};
use leptos::prelude::*;
use leptos::task::spawn_local;
use roofline_engine::chart::compare::speedup_label;
use roofline_engine::compare::{compare, pair_manual, Change, Comparison, Pairing, Side};
use roofline_engine::domain::names::display_name;
use roofline_engine::units::si;
use roofline_engine::{selection, KernelProfile};

fn names(ks: &[KernelProfile]) -> Vec<&str> {
    ks.iter().map(|k| k.name.as_str()).collect()
}

/// How the last earlier run's kernels pair with the current ones, the user's pairs first;
/// `None` without runs. Reads signals.
pub fn pairing(state: AppState) -> Option<Pairing> {
    let manual = state.pairs.get();
    state.runs.with(|runs| {
        let last = runs.last()?;
        Some(state.kernels.with(|ks| pair_manual(&names(&last.kernels), &names(ks), &manual)))
    })
}

/// The comparison of the last earlier run with the current one, each against its own machine.
pub fn comparison(state: AppState) -> Option<(Pairing, Comparison)> {
    let p = pairing(state)?;
    state.runs.with(|runs| {
        let last = runs.last()?;
        let c = state.machine.with(|m| state.kernels.with(|ks| compare(Side { kernels: &last.kernels, machine: Some(&last.machine) }, Side { kernels: ks, machine: Some(m) }, &p)));
        Some((p, c))
    })
}

/// Earlier runs as the chart shows them: each through the same name filter and top-N as the
/// current kernels, so a filtered chart does not draw paths of hidden kernels; and the
/// pairing of the last one with the current kernels among those shown. Reads signals.
pub fn shown_runs(state: AppState) -> (Vec<Run>, Option<Pairing>) {
    let (filter, top_n) = (state.filter.get(), state.top_n.get());
    let full = pairing(state);
    let mut kept_last = Vec::new();
    let runs = state.runs.with(|runs| {
        runs.iter()
            .map(|r| {
                let keep = selection::visible(&r.kernels, &filter, top_n).unwrap_or_default();
                let kernels = keep.iter().filter_map(|&i| r.kernels.get(i).cloned()).collect();
                kept_last = keep;
                Run { kernels, ..r.clone() }
            })
            .collect()
    });
    let visible = state.visible.get().unwrap_or_default();
    (runs, full.map(|p| p.restrict(&kept_last, &visible)))
}

/// Each current kernel's change since the previous run (parallel to `state.kernels`): `None`
/// for a kernel paired with none (new), all `None` without runs.
pub fn changes_by_kernel(state: AppState) -> Vec<Option<Change>> {
    let n = state.kernels.with(Vec::len);
    let mut out = vec![None; n];
    if let Some((_, c)) = comparison(state) {
        let ratio = |a: Option<f64>, b: Option<f64>| Some(a.filter(|v| v.is_finite() && *v >= 0.0)? / b.filter(|v| v.is_finite() && *v > 0.0)? - 1.0);
        for p in &c.pairs {
            if let Some(slot) = out.get_mut(p.after_index) {
                *slot = Some(Change { name: p.after.clone(), time_change: ratio(p.after_time_s, p.before_time_s), perf_change: ratio(p.after_flops_per_s, p.before_flops_per_s) });
            }
        }
    }
    out
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

/// Loads the files picked in `input` as a new run: on success the current kernels (with
/// their name, machine and choice) become the latest earlier run, and the new run gets the
/// machine a load of its files would (each run against its own roofs); on failure nothing
/// changes and the alert says why, as for any load. The input is emptied once read, so
/// picking the same files again is a new run too (not before: emptying it empties its live
/// `FileList`).
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
                let previous = state.current_run();
                if !previous.kernels.is_empty() {
                    state.runs.update(|r| r.push(previous));
                }
                // Pairs were between the runs before this one.
                state.pairs.set(Default::default());
                let notices = state.choose_machine(&ds);
                state.warnings.set(ds.warnings.iter().map(roofline_engine::notice::Notice::from).chain(notices).collect());
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
            n => format!("Comparing {} runs: {} → current", n + 1, runs.iter().map(|r| short(&r.name)).collect::<Vec<_>>().join(" → ")),
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
            <button type="button" class="clear-runs" hidden=none.clone() on:click=handler(move |_: web_sys::MouseEvent| state.clear_runs())>"Clear runs"</button>
            <span class="runs-status" aria-live="polite" hidden=none title=status_title>{status}</span>
        </div>
    }
}

/// Most names listed as new or gone, and pairs in the Amdahl list (the rest counted).
const LISTED: usize = 8;

/// The comparison beside the chart: the whole run's time ratio, which pairs bought what share
/// of the before run's time (Amdahl), the kernels new or gone, and the pairing by hand.
#[component]
pub fn ComparePanel(state: AppState) -> impl IntoView {
    let compared = Memo::new(move |_| comparison(state));
    let body = move || {
        let (pairing, c) = compared.get()?;
        let (before, after) = (state.runs.with(|r| r.last().map(|r| r.kernels.clone()))?, state.kernels.get());
        let name_of = |ks: &[KernelProfile], i: usize| ks.get(i).map_or_else(String::new, |k| display_name(&k.name));
        let run = match c.run_speedup {
            Some(s) => format!("Whole run: {} ({}s → {}s), each run against its own machine's roofs.", speedup_label(s), si(c.before_time_s), si(c.after_time_s)),
            None => "Whole run: no time in the current run.".to_string(),
        };
        let amdahl: Vec<String> = c
            .pairs
            .iter()
            .filter(|p| p.share_of_run.is_some())
            .take(LISTED)
            .map(|p| {
                let pct = |a: Option<f64>| a.map_or_else(|| "–".into(), |a| format!("{:.0}%", 100.0 * a));
                format!(
                    "{} → {}: {}, {:.1}% of the before run's time saved; {} → {} of its own roof",
                    name_of(&before, p.before_index),
                    name_of(&after, p.after_index),
                    p.speedup.map_or_else(|| "–".into(), speedup_label),
                    100.0 * p.share_of_run.unwrap_or(0.0),
                    pct(p.before_attained),
                    pct(p.after_attained)
                )
            })
            .collect();
        let listed = |ks: &[KernelProfile], idx: &[usize]| {
            let mut s: Vec<String> = idx.iter().take(LISTED).map(|&i| name_of(ks, i)).collect();
            if idx.len() > LISTED {
                s.push(format!("and {} more", idx.len() - LISTED));
            }
            s.join(", ")
        };
        let gone = (!pairing.removed.is_empty()).then(|| format!("Gone (only in the previous run): {}", listed(&before, &pairing.removed)));
        let new = (!pairing.added.is_empty()).then(|| format!("New (only in the current run): {}", listed(&after, &pairing.added)));
        let users: Vec<(usize, String)> = state.pairs.with(|m| m.pairs.iter().map(|&(b, a)| (a, format!("{} = {}", name_of(&before, b), name_of(&after, a)))).collect());
        Some(view! {
            <p class="run-ratio">{run}</p>
            <ul class="amdahl" aria-label="What each pair bought">{amdahl.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
            {gone.map(|g| view! { <p class="runs-gone">{g}</p> })}
            {new.map(|n| view! { <p class="runs-new">{n}</p> })}
            <PairForm state=state before=before after=after pairing=pairing />
            <ul class="user-pairs" aria-label="Your pairs">
                {users.into_iter().map(|(a, label)| {
                    let remove = format!("Remove the pair {label}");
                    view! {
                        <li>{label}" "<button type="button" class="unpair-user" aria-label=remove on:click=move |_| {
                            let p = pairing_now(state);
                            state.pairs.update(|m| m.unpair(&p, a));
                        }>"Unpair"</button></li>
                    }
                }).collect_view()}
            </ul>
        })
    };
    view! {
        <section class="compare-panel" aria-label="Run comparison" hidden=move || state.runs.with(Vec::is_empty)>
            <h2>"Compared with the previous run"</h2>
            {body}
        </section>
    }
}

/// The current pairing, read in a handler.
fn pairing_now(state: AppState) -> Pairing {
    untrack(move || pairing(state)).unwrap_or_default()
}

/// "Pair with…": a kernel of the previous run, one of the current run, and a button; "Unpair"
/// for the current kernel chosen. Native selects and buttons, so keyboard and screen readers
/// work as for any form.
#[component]
fn PairForm(state: AppState, before: Vec<KernelProfile>, after: Vec<KernelProfile>, pairing: Pairing) -> impl IntoView {
    // The kernels left unpaired first: they are the ones a user pairs by hand.
    // A mask, not `contains`: runs of 10,000 kernels would make that quadratic.
    let order = |n: usize, lone: &[usize]| {
        let mut is_lone = vec![false; n];
        for &i in lone {
            if let Some(f) = is_lone.get_mut(i) {
                *f = true;
            }
        }
        lone.iter().copied().chain((0..n).filter(|&i| !is_lone[i])).collect::<Vec<usize>>()
    };
    let b_order = order(before.len(), &pairing.removed);
    let a_order = order(after.len(), &pairing.added);
    let option = |ks: &[KernelProfile], i: usize| {
        let label = ks.get(i).map_or_else(String::new, |k| display_name(&k.name));
        view! { <option value=i.to_string()>{label}</option> }
    };
    let b_sel = RwSignal::new(b_order.first().copied());
    let a_sel = RwSignal::new(state.selected.get_untracked().or(a_order.first().copied()));
    let pick = |s: RwSignal<Option<usize>>| move |ev: web_sys::Event| s.set(event_target_value(&ev).parse().ok());
    let selected_after = a_sel.get_untracked();
    view! {
        <div class="pair-form" role="group" aria-label="Pair kernels by hand">
            <label>"Previous run: "<select id="pair-before" on:change=pick(b_sel)>{b_order.iter().map(|&i| option(&before, i)).collect_view()}</select></label>
            <label>"Current run: "<select id="pair-after" on:change=pick(a_sel) prop:value=selected_after.map(|i| i.to_string()).unwrap_or_default()>{a_order.iter().map(|&i| option(&after, i)).collect_view()}</select></label>
            <button type="button" class="pair-with" on:click=move |_| {
                if let (Some(b), Some(a)) = (b_sel.get_untracked(), a_sel.get_untracked()) {
                    state.pairs.update(|m| m.pair(b, a));
                }
            }>"Pair with…"</button>
            <button type="button" class="unpair" title="Unpair the chosen kernel of the current run" on:click=move |_| {
                if let Some(a) = a_sel.get_untracked() {
                    let p = pairing_now(state);
                    state.pairs.update(|m| m.unpair(&p, a));
                }
            }>"Unpair"</button>
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
