//! The kernel table: one row per visible kernel (name filter and top-N by time), sortable by
//! any column, selection shared with the chart. Numbers come from `roofline_engine::report`, the
//! same as the CLI's JSON. Names are text nodes, never HTML.
//!
//! A long table renders only the rows in and near its scroll box's view ([`window`]); the
//! rows above and below stand in as two empty rows of their height, and `aria-rowcount` /
//! `aria-rowindex` tell assistive technology where the rendered rows are. Why: every row in the
//! page, 10,000 kernels made a 110,000-cell table whose first layout held the page for 6.4 s
//! after the chart of a 0.6 s load was drawn (docs/PERFORMANCE.md). Its rows are one line each
//! (`.windowed`: no wrapping), so one row's measured height places them all. The scroll box
//! has no scroll anchoring (`overflow-anchor: none`, app/style.css): the spacer rows keep every
//! row in its place, and Chromium's own correction, when the window's rows were replaced,
//! moved the scroll again, window after window (a jump to row 75 ran on to row 400).

use crate::state::AppState;
use leptos::prelude::*;
use crate::reactive::{flag, handler, text};
use wasm_bindgen::JsCast;
use roofline_engine::report::KernelReport;
use roofline_engine::units::si;

/// Tables of more rows than this render a window of them ([`window`]); shorter ones render
/// every row.
const ALL_ROWS_MAX: usize = 300;
/// Rows of the window above the first row in view, and the step the window moves by.
const ABOVE_ROWS: usize = 25;
const STEP_ROWS: usize = 25;
/// A row's height until one is measured, CSS px (Chromium's, measured: 25 px).
const ROW_PX: f64 = 25.0;
/// The scroll box's greatest height, a share of the window's (`.table-scroll { max-height:
/// 75vh }`, app/style.css).
const BOX_SHARE: f64 = 0.75;

/// Rows a scroll box `box_px` high shows at most, rows `row_px` high: one more for a row cut
/// at each edge.
fn rows_in_view(box_px: f64, row_px: f64) -> usize {
    (box_px / row_px.max(1.0)).ceil() as usize + 1
}

/// Where a box scrolled to `top_px`, `view_px` high under a sticky header `head_px` high, must
/// scroll to show a row that spans `row_top..row_end` below the header's foot; `None` when the
/// row is in view. The box's own scroll, never the page's (`scrollIntoView` on a row scrolls
/// every box around it, the page too, and took the chart out of view on ↑/↓).
fn reveal(row_top: f64, row_end: f64, head_px: f64, top_px: f64, view_px: f64) -> Option<f64> {
    if row_top < top_px {
        Some(row_top)
    } else if row_end + head_px > top_px + view_px {
        Some(row_end + head_px - view_px)
    } else {
        None
    }
}

/// The rows `from..to` of a table of `rows` rows to render when the first row in view is `top`
/// and the box shows at most `in_view` rows. The window starts 25 to 49 rows above `top` (it
/// moves in steps of 25, so a scroll within a step renders nothing) and reaches the last row
/// in view: 49 + `in_view` rows, 77 in a 900 px window. Rows built and laid out are a large
/// load's main cost on the page: 150 rows made the longest task of a 10,000-kernel load, and a
/// fixed 110 (enough for a 2,200 px window) made its frame lay out 34 rows no one sees at
/// 900 px (docs/PERFORMANCE.md).
///
/// The first step is shorter: with no rows above the view to keep, a first row in view up to
/// 24 needs rows up to 24 + `in_view`, 52 in a 900 px window. That is the table a load first
/// shows, whose building and first layout are the load's longest task on the page; a scroll
/// past row 24 renders the 77.
fn window(rows: usize, top: usize, in_view: usize) -> (usize, usize) {
    if rows <= ALL_ROWS_MAX {
        return (0, rows);
    }
    if top < STEP_ROWS {
        return (0, (STEP_ROWS - 1 + in_view).min(rows));
    }
    let size = (ABOVE_ROWS + STEP_ROWS - 1 + in_view).min(rows);
    let from = (top.saturating_sub(ABOVE_ROWS) / STEP_ROWS * STEP_ROWS).min(rows - size);
    (from, from + size)
}

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
    pub(crate) const ALL: [Column; 13] = [
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
            Column::Headroom => g.and_then(|g| g.headroom),
            Column::Potential => g.and_then(|g| g.potential_saving_s),
        }
    }

    pub(crate) fn text(self, r: &KernelReport, total_time_s: Option<f64>) -> String {
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
            // Judged on one side only (model::guidance::Side): no headroom or saving is claimed.
            Column::Headroom | Column::Potential if g.is_some_and(|g| g.headroom.is_none()) => "not assessed".into(),
            Column::Headroom => self.number(r).map_or_else(dash, |v| format!("{v:.1}×")),
            Column::Potential => self.number(r).map_or_else(dash, |v| format!("{}s", si(v))),
            Column::Performance => self.number(r).map_or_else(dash, |v| format!("{}FLOP/s", si(v))),
            Column::Flops => self.number(r).map_or_else(dash, |v| format!("{}FLOP", si(v))),
            Column::L1Bytes | Column::L2Bytes | Column::DramBytes => self.number(r).map_or_else(dash, |v| format!("{}B", si(v))),
        }
    }
}

/// Sorts `rows` (indices into `reports`) by `col`; missing values always sort last, and rows of
/// equal values keep the order of their indices.
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

    // The first row in the scroll box's view (from its scroll position), and a row's height.
    let top_row = RwSignal::new(0usize);
    let row_px = RwSignal::new(ROW_PX);
    // The rows the box shows at most, from the window's height and a row's. It only grows (a
    // window made smaller keeps the rows it had), so that a row measured shorter, or a taller
    // window, renders the rows now in view, and nothing renders again otherwise.
    let fitting = move || rows_in_view(BOX_SHARE * roofline_web::layout::window_height_px(), row_px.get_untracked());
    let in_view = RwSignal::new(fitting());
    let fit = move || {
        let n = fitting();
        if n > in_view.get_untracked() {
            in_view.set(n);
        }
    };
    let resize = window_event_listener(leptos::ev::resize, move |_| fit());
    on_cleanup(move || resize.remove());
    let scroll_ref = NodeRef::<leptos::html::Div>::new();
    // A rendered row's height places the others: measured a frame after rows are shown (once
    // the page has laid them out as one line each) and at each scroll. Only a long table's
    // rows count: a short table's may wrap.
    let measure_row = move || {
        let Some(el) = scroll_ref.get_untracked() else { return };
        let h = el.query_selector("tbody tr").ok().flatten().map_or(0.0, |tr| tr.get_bounding_client_rect().height());
        if h > 0.0 && (h - row_px.get_untracked()).abs() > 0.25 {
            row_px.set(h);
            if state.row_order.with_untracked(Vec::len) > ALL_ROWS_MAX {
                fit();
            }
        }
    };
    let on_scroll = move |_: web_sys::Event| {
        measure_row();
        let Some(el) = scroll_ref.get_untracked() else { return };
        let top = (f64::from(el.scroll_top()) / row_px.get_untracked()).floor().max(0.0) as usize;
        // Only a move of the window re-renders: the same window for every scroll within a step.
        let (rows, n) = (state.row_order.with_untracked(Vec::len), in_view.get_untracked());
        if window(rows, top, n) != window(rows, top_row.get_untracked(), n) {
            top_row.set(top);
        }
    };
    Effect::new(move |_| {
        state.row_order.track();
        top_row.track();
        crate::executor::after_effects_frame(measure_row);
    });
    // The two spacer rows' heights (the rows above and below the window) and widths (every
    // column), set in place (a view of them cost 3.7 KB of the page's wasm).
    Effect::new(move |_| {
        let (rows, top) = (state.row_order.with(Vec::len), top_row.get());
        let (from, to) = window(rows, top, in_view.get());
        let columns = (Column::ALL.len() + usize::from(has_runs())).to_string();
        let row = row_px.get();
        let Some(el) = scroll_ref.get() else { return };
        for (selector, n) in [("thead > tr.spacer > td", from), ("tfoot > tr.spacer > td", rows - to)] {
            let Some(td) = el.query_selector(selector).ok().flatten().and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok()) else { continue };
            let _ = td.set_attribute("colspan", &columns);
            let _ = td.style().set_property("height", &format!("{}px", n as f64 * row));
        }
    });
    // The selected kernel's row is scrolled into the box's view when it is out of it: a kernel
    // picked in the chart, or by ↑/↓ past the rows in view. A rendered row places itself (a
    // short table's rows may wrap); a long table's row may not be rendered yet (the scroll
    // moves the window to it), and its rows are one line each, so one row's height places it.
    Effect::new(move |_| {
        let Some(kernel) = state.selected.get() else { return };
        let Some(position) = state.row_order.with_untracked(|o| o.iter().position(|&i| i == kernel)) else { return };
        let Some(el) = scroll_ref.get_untracked() else { return };
        // The header row is not sticky (its cells are): it lies at the top of the box's content.
        let Some(head) = el.query_selector("thead tr").ok().flatten().map(|tr| tr.get_bounding_client_rect()) else { return };
        let (top, view) = (f64::from(el.scroll_top()), f64::from(el.client_height()));
        let row = el.query_selector(&format!("tbody tr[aria-rowindex=\"{}\"]", position + 2)).ok().flatten().map(|tr| tr.get_bounding_client_rect());
        let (row_top, row_end) = match row {
            Some(r) => {
                let at = r.top() - head.top() - head.height();
                (at, at + r.height())
            }
            None => {
                let px = row_px.get_untracked();
                (position as f64 * px, (position + 1) as f64 * px)
            }
        };
        if let Some(to) = reveal(row_top, row_end, head.height(), top, view) {
            el.set_scroll_top(to.round() as i32);
        }
    });
    let windowed = move || state.row_order.with(Vec::len) > ALL_ROWS_MAX;

    let rows = move || {
        let order = state.row_order.get();
        let (from, to) = window(order.len(), top_row.get(), in_view.get());
        let runs = has_runs();
        let deltas = deltas.get();
        state.report.with(|report| {
            order
                .get(from..to)
                .unwrap_or_default()
                .iter()
                .zip(from..)
                .filter_map(|(&i, position)| {
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
                            aria-rowindex=(position + 2).to_string()
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
        <div class="table-scroll" node_ref=scroll_ref on:scroll=handler(on_scroll)>
            <table class="kernels" class:windowed=flag(windowed) aria-label="Kernels" aria-rowcount=text(move || (state.row_order.with(Vec::len) + 1).to_string())>
                <thead>
                    <tr aria-rowindex="1">
                        {Column::ALL.iter().map(|&c| header(c)).collect_view()}
                        {move || has_runs().then(|| view! {
                            <th scope="col" class="num delta" title="Change of time and of FLOP/s since the previous run (the kernel it is paired with: same name, same function, same short name, or your pair)">"Δ time / Δ perf vs previous run"</th>
                        })}
                    </tr>
                    <tr class="spacer" aria-hidden="true"><td></td></tr>
                </thead>
                <tbody>{rows}</tbody>
                // The rows below the window (the rows above it: under the header).
                <tfoot><tr class="spacer" aria-hidden="true"><td></td></tr></tfoot>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn a_long_table_renders_a_window_that_moves_in_steps() {
        // Up to 300 rows: all of them.
        assert_eq!(window(300, 120, 28), (0, 300));
        // A 900 px window: a box of 675 px shows at most 28 rows of 25 px (27, and one cut).
        assert_eq!(rows_in_view(0.75 * 900.0, 25.0), 28);
        assert_eq!(rows_in_view(0.75 * 2200.0, 27.5), 61);
        // 10,000 rows, 28 in view: 49 + 28 = 77 rows from 25 above the first in view, in steps
        // of 25, kept in the table; the first step, with no rows above, 24 + 28 = 52.
        assert_eq!(window(10_000, 0, 28), (0, 52));
        // Its worst place: the first row in view 24, whose last row in view, 24 + 27, is the
        // window's last.
        let (_, to) = window(10_000, 24, 28);
        assert_eq!(to - 1, 24 + 27);
        assert_eq!(window(10_000, 25, 28), (0, 77));
        assert_eq!(window(10_000, 49, 28), (0, 77));
        assert_eq!(window(10_000, 50, 28), (25, 102));
        assert_eq!(window(10_000, 5_000, 28), (4_975, 5_052));
        assert_eq!(window(10_000, 9_999, 28), (9_923, 10_000));
        // The worst place in a step: the first row in view 49 rows into the window; its last
        // row in view, 49 + 27, is the window's last.
        let (from, to) = window(10_000, 74, 28);
        assert_eq!((from, to), (25, 102));
        assert_eq!(to - 1, 74 + 27);
        // 61 in view (a 2,200 px window): the 110 rows the window held for every window.
        assert_eq!(window(10_000, 0, 61), (0, 85));
        assert_eq!(window(10_000, 30, 61), (0, 110));
        assert_eq!(window(10_000, 5_000, 61), (4_975, 5_085));
        assert_eq!(window(301, 200, 61), (175, 285));
        assert_eq!(window(301, 290, 61), (191, 301));
        // A window taller than the table: every row.
        assert_eq!(window(301, 0, 400), (0, 301));
        assert_eq!(window(301, 30, 400), (0, 301));
    }

    #[wasm_bindgen_test]
    fn rows_sort_by_value_with_the_missing_last_and_ties_in_order() {
        use roofline_engine::domain::counters::{Counter, Counters};
        use roofline_engine::model::catalogue;
        use roofline_engine::KernelProfile;
        let kernel = |name: &str, time_s: Option<f64>| {
            let mut counters = Counters::default();
            if let Some(t) = time_s {
                counters.set(Counter::TimeS, t);
            }
            KernelProfile { name: name.into(), launches: 1, counters }
        };
        // 0: 2 ms, 1: no time, 2: 5 ms, 3: 2 ms (a tie with 0), 4: no time.
        let kernels = vec![kernel("beta", Some(2e-3)), kernel("Alpha", None), kernel("delta", Some(5e-3)), kernel("alpha", Some(2e-3)), kernel("Gamma", None)];
        let reports = roofline_engine::report::analyze_kernels(&kernels, Some(&catalogue::v100())).kernels;
        let sorted = |col: Column, descending: bool| {
            let mut rows: Vec<usize> = (0..kernels.len()).collect();
            sort_rows(&mut rows, &reports, col, descending);
            rows
        };
        // Longest first; the untimed last in either direction; ties by index.
        assert_eq!(sorted(Column::Time, true), vec![2, 0, 3, 1, 4]);
        assert_eq!(sorted(Column::Time, false), vec![0, 3, 2, 1, 4]);
        // Names without regard to case; "Alpha" and "alpha" tie, in index order.
        assert_eq!(sorted(Column::Name, false), vec![1, 3, 0, 2, 4]);
        assert_eq!(sorted(Column::Name, true), vec![4, 2, 0, 1, 3]);
        // A subset (a filter) sorts among itself.
        let mut rows = vec![4, 2, 0];
        sort_rows(&mut rows, &reports, Column::Time, true);
        assert_eq!(rows, vec![2, 0, 4]);
    }

    #[wasm_bindgen_test]
    fn the_selected_row_is_scrolled_into_view_only_when_out_of_it() {
        // Rows of 25 px under a 30 px header, a box 300 px high: rows 0..=9 fit at the top
        // (row 9 ends at 10 · 25 + 30 = 280 px); row 10 ends at 305 px: scroll by 5.
        let at = |position: usize| (position as f64 * 25.0, (position + 1) as f64 * 25.0);
        let reveal_at = |position: usize, top: f64| reveal(at(position).0, at(position).1, 30.0, top, 300.0);
        assert_eq!(reveal_at(9, 0.0), None);
        assert_eq!(reveal_at(10, 0.0), Some(5.0));
        // Row 11 ends at 12 · 25 + 30 = 330 px: scroll by 30.
        assert_eq!(reveal_at(11, 0.0), Some(30.0));
        // Scrolled to 1,000 px (row 40 at the header's foot): row 39 is above, row 40 in view.
        assert_eq!(reveal_at(39, 1_000.0), Some(975.0));
        assert_eq!(reveal_at(40, 1_000.0), None);
        // The last of 10,000 from the top.
        assert_eq!(reveal_at(9_999, 0.0), Some(250_000.0 + 30.0 - 300.0));
        // A row that wrapped to two lines (50 px) from 100 px: its foot at 180 px is in view.
        assert_eq!(reveal(100.0, 150.0, 30.0, 0.0, 300.0), None);
        assert_eq!(reveal(260.0, 310.0, 30.0, 0.0, 300.0), Some(40.0));
    }
}
