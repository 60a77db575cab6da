//! The kernel table: one row per visible kernel (name filter and top-N by time), sortable by
//! any column, selection shared with the chart. Numbers come from `roofline_engine::report`, the
//! same as the CLI's JSON. Names are text nodes, never HTML.

use crate::app::AppState;
use leptos::prelude::*;
use crate::reactive::{flag, handler, text};
use roofline_engine::report::KernelReport;
use roofline_engine::units::si;

/// A sortable column: header, tooltip, and the value it sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Name,
    Launches,
    Time,
    Flops,
    L1Bytes,
    L2Bytes,
    DramBytes,
    Intensity,
    Performance,
    Attained,
    Binding,
    Headroom,
    Potential,
}

impl Column {
    const ALL: [Column; 13] = [
        Column::Name,
        Column::Launches,
        Column::Time,
        Column::Flops,
        Column::L1Bytes,
        Column::L2Bytes,
        Column::DramBytes,
        Column::Intensity,
        Column::Performance,
        Column::Attained,
        Column::Binding,
        Column::Headroom,
        Column::Potential,
    ];

    fn header(self) -> (&'static str, &'static str) {
        match self {
            Column::Name => ("Kernel", "Kernel name (full name on hover)"),
            Column::Launches => ("Launches", "Number of launches, summed"),
            Column::Time => ("Time", "Total time over launches, and share of the run"),
            Column::Flops => ("FLOPs", "All floating-point operations: FP64 + FP32 + FP16 + tensor"),
            Column::L1Bytes => ("L1 bytes", "Bytes through L1/TEX"),
            Column::L2Bytes => ("L2 bytes", "Bytes through L2"),
            Column::DramBytes => ("DRAM bytes", "Bytes to and from DRAM/HBM"),
            Column::Intensity => ("FLOP/byte", "Arithmetic intensity at DRAM"),
            Column::Performance => ("FLOP/s", "Achieved FLOP/s"),
            Column::Attained => ("% of roof", "Attained fraction of the binding roof"),
            Column::Binding => ("Bound by", "The roof that limits this kernel"),
            Column::Headroom => ("Headroom", "How many times faster it could run at this intensity"),
            Column::Potential => ("Potential", "Run time saved if it reached its roof (Amdahl-weighted)"),
        }
    }

    fn numeric(self) -> bool {
        !matches!(self, Column::Name | Column::Binding)
    }

    fn number(self, r: &KernelReport) -> Option<f64> {
        let g = r.guidance.as_ref();
        match self {
            Column::Name | Column::Binding => None,
            Column::Launches => Some(r.launches as f64),
            Column::Time => r.time_s,
            Column::Flops => r.flops.total,
            Column::L1Bytes => r.bytes.l1,
            Column::L2Bytes => r.bytes.l2,
            Column::DramBytes => r.bytes.dram,
            Column::Intensity => Some(r.flops.total? / r.bytes.dram.filter(|b| *b > 0.0)?),
            Column::Performance => r.flops_per_s,
            Column::Attained => g.map(|g| g.attained_fraction),
            Column::Headroom => g.map(|g| g.headroom),
            Column::Potential => g.map(|g| g.potential_saving_s),
        }
    }

    fn text(self, r: &KernelReport, total_time_s: Option<f64>) -> String {
        let g = r.guidance.as_ref();
        let dash = || "–".to_string();
        match self {
            Column::Name => r.name.clone(),
            Column::Binding => g.map_or_else(dash, |g| g.binding.name.clone()),
            Column::Time => match (r.time_s, total_time_s) {
                (Some(t), Some(total)) if total > 0.0 => format!("{}s ({:.1}%)", si(t), 100.0 * t / total),
                (Some(t), _) => format!("{}s", si(t)),
                _ => dash(),
            },
            Column::Launches => r.launches.to_string(),
            Column::Intensity => self.number(r).map_or_else(dash, |v| format!("{v:.3}")),
            Column::Attained => self.number(r).map_or_else(dash, |v| format!("{:.0}%", 100.0 * v)),
            Column::Headroom => self.number(r).map_or_else(dash, |v| format!("{v:.1}×")),
            Column::Potential => self.number(r).map_or_else(dash, |v| format!("{}s", si(v))),
            Column::Performance => self.number(r).map_or_else(dash, |v| format!("{}FLOP/s", si(v))),
            Column::Flops => self.number(r).map_or_else(dash, |v| format!("{}FLOP", si(v))),
            Column::L1Bytes | Column::L2Bytes | Column::DramBytes => self.number(r).map_or_else(dash, |v| format!("{}B", si(v))),
        }
    }
}

/// Sorts `rows` (indices into `reports`) by `col`; missing values always sort last.
pub fn sort_rows(rows: &mut [usize], reports: &[KernelReport], col: Column, descending: bool) {
    rows.sort_by(|&a, &b| {
        let (ra, rb) = (&reports[a], &reports[b]);
        let ord = if col.numeric() {
            match (col.number(ra), col.number(rb)) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (Some(_), None) => return std::cmp::Ordering::Less,
                (None, Some(_)) => return std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        } else {
            col.text(ra, None).to_ascii_lowercase().cmp(&col.text(rb, None).to_ascii_lowercase())
        };
        let ord = if descending { ord.reverse() } else { ord };
        ord.then(a.cmp(&b))
    });
}

#[component]
pub fn KernelTable(state: AppState) -> impl IntoView {
    let sort = RwSignal::new((Column::Time, true));
    // Rows in display order, shared with keyboard navigation through `state.row_order`.
    Effect::new(move |_| {
        let (col, desc) = sort.get();
        let mut rows = state.visible.get().unwrap_or_default();
        state.report.with(|r| sort_rows(&mut rows, &r.kernels, col, desc));
        state.row_order.set(rows);
    });
    // Run comparison (compare.rs): each kernel's change since the previous run, if any.
    let deltas = Memo::new(move |_| crate::compare::changes_by_kernel(state));
    let has_runs = move || !state.runs.with(Vec::is_empty);

    let header = move |col: Column| {
        let (label, title) = col.header();
        // One of three words for this column's sort state: descending, ascending, unsorted.
        let by_sort = move |desc: &'static str, asc: &'static str, none: &'static str| {
            text(move || {
                match sort.get() {
                    (c, true) if c == col => desc,
                    (c, false) if c == col => asc,
                    _ => none,
                }
                .to_string()
            })
        };
        let aria = by_sort("descending", "ascending", "none");
        let arrow = by_sort(" ▾", " ▴", "");
        view! {
            <th scope="col" aria-sort=aria class:num=col.numeric()>
                <button type="button" class="sort" title=title on:click=handler(move |_: web_sys::MouseEvent| {
                    sort.update(|(c, d)| if *c == col { *d = !*d } else { *c = col; *d = col.numeric() })
                })>{label}{arrow}</button>
            </th>
        }
    };

    let rows = move || {
        let order = state.row_order.get();
        let runs = has_runs();
        let deltas = deltas.get();
        state.report.with(|report| {
            order
                .iter()
                .filter_map(|&i| {
                    let r = report.kernels.get(i)?;
                    let total = report.total_time_s;
                    let display = state.names.with(|n| n.get(i).cloned()).unwrap_or_else(|| roofline_engine::domain::names::display_name(&r.name));
                    let full = r.name.clone();
                    let cells = Column::ALL[1..]
                        .iter()
                        .map(|&c| view! { <td class:num=c.numeric()>{c.text(r, total)}</td> })
                        .collect_view();
                    let delta = runs.then(|| crate::compare::cell(deltas.get(i).and_then(Option::as_ref)));
                    let delta = delta.map(|t| view! { <td class="num delta">{t}</td> });
                    let above = r.guidance.as_ref().is_some_and(|g| g.above_roof);
                    Some(view! {
                        <tr
                            class:selected=flag(move || state.selected.get() == Some(i))
                            class:above-roof=above
                            aria-selected=text(move || (state.selected.get() == Some(i)).to_string())
                            on:click=handler(move |_: web_sys::MouseEvent| state.selected.set(Some(i)))
                        >
                            <td class="name" title=full>{display}</td>
                            {cells}
                            {delta}
                        </tr>
                    })
                })
                .collect_view()
        })
    };

    view! {
        <div class="table-tools">
            <label>
                "Filter "
                <input
                    type="search"
                    id="kernel-filter"
                    placeholder="regex, e.g. gemm|conv"
                    aria-label="Filter kernels by name (regular expression)"
                    prop:value=text(move || state.filter.get())
                    on:input=handler(move |ev: web_sys::Event| state.filter.set(event_target_value(&ev)))
                />
            </label>
            <label>
                "Top "
                <input
                    type="number"
                    min="1"
                    id="top-n"
                    aria-label="Show only the N longest-running kernels"
                    placeholder="all"
                    prop:value=text(move || state.top_n.get().map(|n| n.to_string()).unwrap_or_default())
                    on:input=handler(move |ev: web_sys::Event| state.top_n.set(event_target_value(&ev).trim().parse().ok().filter(|n: &usize| *n > 0)))
                />
                " by time"
            </label>
            <span class="count" aria-live="polite">{text(move || {
                let total = state.kernels.with(Vec::len);
                match state.visible.get() {
                    Ok(v) => format!("{} of {} kernels", v.len(), total),
                    Err(e) => e,
                }
            })}</span>
        </div>
        <div class="table-scroll">
            <table class="kernels" aria-label="Kernels">
                <thead>
                    <tr>
                        {Column::ALL.iter().map(|&c| header(c)).collect_view()}
                        {move || has_runs().then(|| view! {
                            <th scope="col" class="num delta" title="Change of time and of FLOP/s since the previous run (same kernel name)">"Δ time / Δ perf vs previous run"</th>
                        })}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
