//! The selected kernel, verdict first (issue 43): its short name (the full one on demand), the
//! engine's one sentence (binding roof, % of roof, what the counters could not assess), what
//! would move it (`model::advice`), the numbers behind the verdict, and where each number came
//! from (`provenance`: the profiler's metrics, their values, the formula, what was missing).
//! Kernel names and metric names are shown as text, never as HTML.

use crate::state::AppState;
use leptos::prelude::*;
use roofline_engine::provenance::{self, Origin, Quantity};
use roofline_engine::units::si;

/// One quantity's rows: its name and value, then (full width, the side panel is narrow) where
/// it came from: the formula and each metric's value as summed, and what was not collected.
fn provenance_row(q: Quantity, named: bool) -> impl IntoView {
    let value = q.value.map_or_else(|| "not measured".to_string(), |v| format!("{}{}", si(v), q.unit));
    let from = if named {
        // Five significant digits: the page holds each counter as a link carries it (24-bit
        // values, 4.8 digits: docs/SHARING.md); `roofline analyze --json` has the exact sums.
        let inputs: Vec<String> = q.inputs.iter().map(|i| format!("{} = {:.4e} {}", i.metric, i.value, i.unit)).collect();
        // A quantity read from one metric needs no formula beside it.
        let mut parts: Vec<String> = if q.inputs.len() == 1 && q.inputs[0].metric == q.formula { Vec::new() } else { vec![q.formula.clone()] };
        parts.extend(inputs);
        if !q.missing.is_empty() {
            parts.push(format!("not collected: {}", q.missing.join(", ")));
        }
        parts.join("; ")
    } else {
        "as the link or file gave it".to_string()
    };
    view! {
        <tr><th scope="row">{q.name}</th><td>{value}</td></tr>
        <tr><td colspan="2" class="from">{from}</td></tr>
    }
}

#[component]
pub fn SummaryPanel(state: AppState) -> impl IntoView {
    let body = move || {
        let Some(i) = state.selected.get() else {
            return view! { <p class="hint">"Select a kernel (click a dot or a row, or use ↑/↓) to see what bounds it."</p> }.into_any();
        };
        state.report.with(|report| {
            let Some(r) = report.kernels.get(i) else { return view! { <p></p> }.into_any() };
            let name = r.name.clone();
            let short = state.kernels.with_untracked(|ks| ks.get(i).map(|k| k.display_name())).unwrap_or_else(|| name.clone());
            // The full name (a PyTorch kernel's runs to 1,500 characters) only when asked.
            let full = (short != name).then(|| view! { <details class="full-name"><summary>"Full name"</summary><p>{name.clone()}</p></details> });
            let summary = r.summary.clone();
            let advice = r.advice.clone().map(|a| view! { <p class="advice">{a}</p> });
            let facts = r.guidance.as_ref().map(|g| {
                let rank = g.rank.map_or_else(|| "–".into(), |n| format!("#{n}"));
                let na = || "not assessed".to_string();
                let saving = match (g.potential_saving_s, g.potential_saving_fraction) {
                    (Some(s), Some(f)) => format!("{}s ({:.1}% of the run)", si(s), 100.0 * f),
                    (s, _) => s.map_or_else(na, |s| format!("{}s", si(s))),
                };
                let headroom = g.headroom.map_or_else(na, |h| format!("{h:.2}× at this intensity"));
                view! {
                    <dl class="facts">
                        <dt>"Bound by"</dt><dd>{g.binding.name.clone()}</dd>
                        <dt>"Attained"</dt><dd>{format!("{:.0}% of that roof", 100.0 * g.attained_fraction)}</dd>
                        <dt>"Headroom"</dt><dd>{headroom}</dd>
                        <dt>"Potential saving"</dt><dd>{saving}</dd>
                        <dt>"Rank"</dt><dd>{rank}</dd>
                    </dl>
                }
            });
            let warning = r.guidance.as_ref().filter(|g| g.above_roof).map(|_| {
                view! { <p class="warning">"This kernel is above its roof: the machine's peaks or the counters are wrong (check the clock: Nsight Compute locks it to base)."</p> }
            });
            let origin = state.profile.with_untracked(|p| p.origin);
            let machine = state.machine.get_untracked();
            let rows = state.kernels.with_untracked(|ks| ks.get(i).map(|k| provenance::of_kernel(k, origin, Some(&machine)))).unwrap_or_default();
            let named = origin != Origin::Other;
            // Quantities measured as zero (a copy's FLOPs, the matrix types it did not use) in
            // one line, so that the ones that make the verdict stand out.
            let (zero, rows): (Vec<Quantity>, Vec<Quantity>) = rows.into_iter().partition(|q| q.value == Some(0.0) && q.missing.is_empty());
            let zero = (!zero.is_empty()).then(|| view! { <p class="from">{format!("Measured as zero: {}", zero.iter().map(|q| q.name.as_str()).collect::<Vec<_>>().join(", "))}</p> });
            let sources = view! {
                <details class="provenance">
                    <summary>"Where these numbers come from"</summary>
                    <table>
                        <thead><tr><th scope="col">"Quantity"</th><th scope="col">"Value"</th></tr></thead>
                        <tbody>{rows.into_iter().map(|q| provenance_row(q, named)).collect_view()}</tbody>
                    </table>
                    {zero}
                    <p class="from">"Values as this view holds them, to 5 significant digits (as a link carries them); roofline analyze --json gives the files' exact sums."</p>
                </details>
            };
            view! {
                <p class="kernel-name" title=name.clone()>{short}</p>
                {full}
                <p class="summary">{summary}</p>
                {advice}
                {warning}
                {facts}
                {sources}
            }
            .into_any()
        })
    };
    view! {
        <section class="panel summary-panel" aria-label="Selected kernel" aria-live="polite">
            <h2>"Selected kernel"</h2>
            {body}
        </section>
    }
}
