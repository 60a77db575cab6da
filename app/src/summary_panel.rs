//! The selected kernel, verdict first (issue 43): its short name (the full one on demand), the
//! engine's one sentence (binding roof, % of roof, what the counters could not assess), what
//! would move it (`model::advice`), the numbers behind the verdict, and where each number came
//! from (`provenance`: the profiler's metrics, their values, the formula, what was missing).
//! Kernel names and metric names are shown as text, never as HTML.

use crate::state::AppState;
use leptos::prelude::*;
use roofline_engine::provenance::{self, Origin, Quantity};
use roofline_engine::units::si;

/// One quantity's row: its value with unit, then the metrics behind it.
fn provenance_row(q: Quantity, named: bool) -> impl IntoView {
    let value = q.value.map_or_else(|| "not measured".to_string(), |v| format!("{}{}", si(v), q.unit));
    let from = if named {
        // Inputs exactly as summed, so that they can be checked against the file.
        let inputs: Vec<String> = q.inputs.iter().map(|i| format!("{} = {} {}", i.metric, i.value, i.unit)).collect();
        let mut s = q.formula.clone();
        if !inputs.is_empty() {
            s.push_str(&format!(" — {}", inputs.join("; ")));
        }
        if !q.missing.is_empty() {
            s.push_str(&format!(" — not collected: {}", q.missing.join(", ")));
        }
        s
    } else {
        "as the link or file gave it".to_string()
    };
    view! { <tr><th scope="row">{q.name}</th><td>{value}</td><td class="from">{from}</td></tr> }
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
            let sources = view! {
                <details class="provenance">
                    <summary>"Where these numbers come from"</summary>
                    <table>
                        <thead><tr><th scope="col">"Quantity"</th><th scope="col">"Value"</th><th scope="col">"From"</th></tr></thead>
                        <tbody>{rows.into_iter().map(|q| provenance_row(q, named)).collect_view()}</tbody>
                    </table>
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
