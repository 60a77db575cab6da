//! The page's layout: the toolbar, then the chart beside its notes and the selected kernel,
//! the table below; drop anywhere. The state it lays out is `state.rs`'s. With `?embed` in the
//! address, the chart alone instead (`embed.rs`).

use crate::chart_view::ChartView;
use crate::collect_panel::CollectPanel;
use crate::kernel_table::KernelTable;
use crate::notes::{KernelNote, Warnings};
use crate::state::AppState;
use crate::summary_panel::SummaryPanel;
use crate::toolbar::Toolbar;
use crate::files;
use leptos::either::Either;
use leptos::prelude::*;
use crate::keyboard::{HelpDialog, KeyboardShortcuts};
use crate::reactive::{flag, handler, text};
use roofline_engine::notice::capitalise;

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    state.start();
    // Keep the address in step with the view (replaceState: no history entries, no scroll),
    // deferred while the view changes frame after frame (address.rs).
    crate::address::keep_in_step(state);
    crate::theme::follow_system(state);
    // `?embed`: the chart alone, which reads no file (embed.rs).
    if crate::embed::active() {
        return Either::Left(view! { <crate::embed::Embed state=state /> });
    }
    // The parser worker starts once the first chart is drawn, ready for the first file.
    files::prewarm();

    let (dragging, set_dragging) = signal(false);

    // `Either`, not `into_any`: an `AnyView` keeps every method of the whole page's view for
    // its function pointers, server rendering included (+23 KB gzipped, against +2 KB).
    Either::Right(view! {
        <div
            class="app"
            class:dragging=dragging
            on:dragover=handler(move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                set_dragging.set(true);
            })
            on:dragleave=handler(move |_: web_sys::DragEvent| set_dragging.set(false))
            on:drop=handler(move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                set_dragging.set(false);
                state.load_file_list(ev.data_transfer().and_then(|dt| dt.files()));
            })
        >
            <Toolbar state=state />
            <KeyboardShortcuts state=state />
            <HelpDialog state=state />
            <crate::open_url::Consent state=state />
            <main class="workspace">
                <div class="chart-column">
                    <MachineNote state=state />
                    <div class="alert" role="alert" hidden=flag(move || state.error.with(Option::is_none))>
                        {text(move || state.error.get().unwrap_or_default())}
                        // The formats page of this site (docs/FORMATS.md, built by postbuild.mjs): a
                        // web user cannot open the repository path an error names.
                        " " <a href="formats.html" target="_blank" rel="noopener">"Supported formats and how to produce them"</a>
                    </div>
                    <ChartView state=state />
                </div>
                <aside class="side" aria-label="About the data and the selected kernel">
                    <KernelNote state=state />
                    <crate::compare::ComparePanel state=state />
                    <Warnings state=state />
                    <SummaryPanel state=state />
                    <CollectPanel state=state />
                </aside>
                <KernelTable state=state />
            </main>
            <footer>
                "Machine: " {text(move || state.machine.with(|m| match m.clock_hz {
                    Some(hz) => format!("{} at {:.0} MHz — {}", m.name, hz / 1e6, m.source),
                    None => format!("{} — {}", m.name, m.source),
                }))}
                <span class="tagline">" · Drop profiler files anywhere on the page. Nothing leaves your browser."</span>
            </footer>
        </div>
    })
}

/// The sentence above the chart: which GPU ran the profile, at what clock, and whose roofs
/// are drawn; a warning beside it when the machine is not the profile's device.
#[component]
fn MachineNote(state: AppState) -> impl IntoView {
    let note = state.machine_note;
    view! {
        <div class="machine-note" role="status" aria-label="Machine" hidden=flag(move || note.with(Option::is_none))>
            <p class="machine-sentence">{text(move || note.with(|n| n.as_ref().map(|(s, _)| s.clone()).unwrap_or_default()))}</p>
            {move || note.with(|n| n.as_ref().map(|(_, ws)| ws.clone()).unwrap_or_default()).into_iter().map(|w| view! { <p class="machine-warning">{capitalise(&w)}</p> }).collect_view()}
        </div>
    }
}
