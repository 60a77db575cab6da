//! The toolbar: one compact row over the chart, as speedscope and Perfetto keep theirs, so the
//! chart gets the screen. Open files and the mode tabs stay in sight; data (examples, a run
//! to compare, pasted text), machine, chart options and export are menus; copy link, theme
//! and help are buttons. On a narrow screen everything but Open and the tabs folds into one
//! "Menu" (the same elements: `#toolbar-more` is a popover there and an ordinary row on wide
//! screens, app/style.css), so ids and names do not change with the width.

use crate::state::AppState;
use crate::compare::RunControls;
use crate::example_picker::ExamplePicker;
use crate::export::ExportMenu;
use crate::machine_editor::MachineEditor;
use crate::paste_box::PasteBox;
use crate::popover::{menu_button, on_first_open, on_toggle};
use crate::reactive::{handler, text};
use crate::view_controls::{ChartOptions, ModeTabs, ShareButtons};
use leptos::prelude::*;

/// The id of the narrow screen's menu (a popover there).
pub const MORE_ID: &str = "toolbar-more";

#[component]
pub fn Toolbar(state: AppState) -> impl IntoView {
    let machine_label = text(move || state.machine.with(|m| m.short_name().to_string()));
    let [data, machine, chart, export] = [(); 4].map(|_| RwSignal::new(false));
    // The Machine, Chart and Export panels are built when they first open (popover.rs).
    let (machine_before, machine_toggle) = on_first_open("menu-machine", machine, move || view! { <MachineEditor state=state /> });
    let (chart_before, chart_toggle) = on_first_open("menu-chart", chart, move || view! { <ChartOptions state=state /> });
    let (export_before, export_toggle) = on_first_open("menu-export", export, move || view! { <ExportMenu state=state /> });
    view! {
        <header class="toolbar">
            <h1 class="brand">"Roofline Explorer"</h1>
            <label class="file-button" title="Or drop files anywhere on the page">
                <span>"Open files…"</span>
                <input
                    type="file"
                    id="file-input"
                    class="visually-hidden"
                    multiple
                    aria-label="Open profiler files"
                    on:change=handler(move |ev: web_sys::Event| {
                        state.load_picked(event_target(&ev));
                    })
                />
            </label>
            <ModeTabs state=state />
            <button type="button" class="more-button" popovertarget=MORE_ID aria-label="Menu">
                <span aria-hidden="true">"☰"</span>" Menu"
            </button>
            <div id=MORE_ID popover="auto" class="toolbar-more" role="group" aria-label="Data, machine, chart and sharing">
                <div class="menu">
                    {menu_button("menu-data", text(|| "Data".to_string()), "", data)}
                    <div id="menu-data" popover="auto" class="menu-panel" role="group" aria-label="Data" on:toggle=on_toggle("menu-data", data)>
                        <ExamplePicker state=state />
                        <section class="menu-section" aria-label="More data">
                            <h2 class="menu-heading">"More data"</h2>
                            <RunControls state=state />
                            <PasteBox state=state />
                        </section>
                        <p class="source-line">"Shown: "<span class="source" title=text(move || state.source.get())>{text(move || state.source.get())}</span></p>
                    </div>
                </div>
                <div class="menu machine-menu">
                    {menu_button("menu-machine", machine_label, "Machine: ", machine)}
                    <div id="menu-machine" popover="auto" class="menu-panel" role="group" aria-label="Machine" on:beforetoggle=machine_before on:toggle=machine_toggle></div>
                </div>
                <div class="menu">
                    {menu_button("menu-chart", text(|| "Chart".to_string()), "", chart)}
                    <div id="menu-chart" popover="auto" class="menu-panel" role="group" aria-label="Chart" on:beforetoggle=chart_before on:toggle=chart_toggle></div>
                </div>
                <div class="menu">
                    {menu_button("menu-export", text(|| "Export".to_string()), "", export)}
                    <div id="menu-export" popover="auto" class="menu-panel" role="group" aria-label="Export" on:beforetoggle=export_before on:toggle=export_toggle></div>
                </div>
                <ShareButtons state=state />
            </div>
            <progress class="load-progress" max="1" aria-label="Reading files" hidden=crate::reactive::flag(move || state.progress.get().is_none()) prop:value=move || state.progress.get().unwrap_or(0.0)></progress>
            <button type="button" class="load-cancel" hidden=crate::reactive::flag(move || state.progress.get().is_none()) on:click=handler(move |_: web_sys::MouseEvent| crate::files::cancel())>"Cancel"</button>
        </header>
    }
}

