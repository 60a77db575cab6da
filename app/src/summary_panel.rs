//! The selected kernel in plain language: the engine's one-sentence summary (binding roof,
//! attained fraction, access pattern, predication, headroom) and the numbers behind it.

use crate::state::AppState;
use leptos::prelude::*;
use roofline_engine::units::si;

#[component]
pub fn SummaryPanel(state: AppState) -> impl IntoView {
    let body = move || {
        let Some(i) = state.selected.get() else {
            return view! { <p class="hint">"Select a kernel (click a dot or a row, or use ↑/↓) to see what bounds it."</p> }.into_any();
        };
        state.report.with(|report| {
            let Some(r) = report.kernels.get(i) else { return view! { <p></p> }.into_any() };
            let name = r.name.clone();
            let summary = r.summary.clone();
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
            view! {
                <p class="kernel-name">{name}</p>
                <p class="summary">{summary}</p>
                {warning}
                {facts}
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
