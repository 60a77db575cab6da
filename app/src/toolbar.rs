//! The toolbar: one compact row over the chart, as speedscope and Perfetto keep theirs, so the
//! chart gets the screen. Open files and the mode tabs stay in sight; data (examples, a run
//! to compare, pasted text), machine, chart options and export are menus; copy link, theme
//! and help are buttons. On a narrow screen everything but Open and the tabs folds into one
//! "Menu" (the same elements: `#toolbar-more` is a popover there and an ordinary row on wide
//! screens, app/style.css), so ids and names do not change with the width.

use crate::app::AppState;
use crate::compare::RunControls;
use crate::example_picker::ExamplePicker;
use crate::export::ExportMenu;
use crate::machine_editor::MachineEditor;
use crate::paste_box::PasteBox;
use crate::popover::Menu;
use crate::reactive::{handler, text};
use crate::view_controls::{ChartOptions, ModeTabs, ShareButtons};
use leptos::prelude::*;

/// The id of the narrow screen's menu (a popover there).
pub const MORE_ID: &str = "toolbar-more";

/// The machine's name as the toolbar shows it: without its clock, which the sentence above
/// the chart gives ("NVIDIA V100 SXM2 (1530 MHz)" → "NVIDIA V100 SXM2").
fn short_machine(name: &str) -> String {
    name.split(" (").next().unwrap_or(name).to_string()
}

#[component]
pub fn Toolbar(state: AppState) -> impl IntoView {
    let machine_label = text(move || state.machine.with(|m| short_machine(&m.name)));
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
                        let input: web_sys::HtmlInputElement = event_target(&ev);
                        state.load_file_list(input.files());
                    })
                />
            </label>
            <ModeTabs state=state />
            <button type="button" class="more-button" popovertarget=MORE_ID aria-label="Menu">
                <span aria-hidden="true">"☰"</span>" Menu"
            </button>
            <div id=MORE_ID popover="auto" class="toolbar-more" role="group" aria-label="Data, machine, chart and sharing">
                <Menu id="menu-data" label=text(|| "Data".to_string())>
                    <ExamplePicker state=state />
                    <section class="menu-section" aria-label="More data">
                        <h2 class="menu-heading">"More data"</h2>
                        <RunControls state=state />
                        <PasteBox state=state />
                    </section>
                    <p class="source-line">"Shown: "<span class="source" title=text(move || state.source.get())>{text(move || state.source.get())}</span></p>
                </Menu>
                <Menu id="menu-machine" label=machine_label prefix="Machine: " class="machine-menu">
                    <MachineEditor state=state />
                </Menu>
                <Menu id="menu-chart" label=text(|| "Chart".to_string())>
                    <ChartOptions state=state />
                </Menu>
                <Menu id="menu-export" label=text(|| "Export".to_string())>
                    <ExportMenu state=state />
                </Menu>
                <ShareButtons state=state />
            </div>
            <progress class="load-progress" max="1" aria-label="Reading files" hidden=crate::reactive::flag(move || state.progress.get().is_none()) prop:value=move || state.progress.get().unwrap_or(0.0)></progress>
        </header>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn machine_names_lose_their_clock() {
        assert_eq!(short_machine("NVIDIA V100 SXM2 (1530 MHz)"), "NVIDIA V100 SXM2");
        assert_eq!(short_machine("AMD GPU 0"), "AMD GPU 0");
        assert_eq!(short_machine("custom"), "custom");
    }
}
