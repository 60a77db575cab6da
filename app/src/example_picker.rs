//! The example picker: one button per built-in example (in the toolbar's Data menu), each
//! with its source line. Kernel
//! examples load at once; file examples are fetched from the page's own origin
//! (`examples/NAME`, copied there by Trunk from `public/examples/`) and read by the engine's
//! `load_dataset` (through `json::load_sources`), exactly like dropped files.

use crate::state::AppState;
use crate::examples::{self, Data, Example};
use leptos::prelude::*;
use crate::reactive::handler;
use leptos::task::spawn_local;
use roofline_engine::{Dataset, KernelProfile, SourceFile};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Fetches one file of the page's origin into memory.
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|_| format!("{url}: the example could not be fetched"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| format!("{url}: not a response"))?;
    if !response.ok() {
        return Err(format!("{url}: the server answered {}", response.status()));
    }
    let buffer = response.array_buffer().map_err(|_| format!("{url}: unreadable response"))?;
    let buffer = JsFuture::from(buffer).await.map_err(|_| format!("{url}: unreadable response"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Fetches every file of a file example.
pub async fn fetch_example_files(example: &Example) -> Result<Vec<SourceFile>, String> {
    let mut out = Vec::new();
    if let Data::Files(names) = &example.data {
        for (name, url) in names.iter().zip(example.urls()) {
            out.push(SourceFile { name: (*name).to_string(), bytes: fetch_bytes(&url).await? });
        }
    }
    Ok(out)
}

/// Reads an example's fetched files as one run (what the picker does after fetching).
pub fn read_example_files(files: &[SourceFile]) -> Result<Dataset, String> {
    crate::json::load_sources(files).map_err(|e| e.to_string())
}

/// Shows a loaded example: its kernels, its machine (else the files', else the current one)
/// and its source line.
fn show(state: AppState, example: &Example, ds: Dataset) {
    state.error.set(None);
    state.warnings.set(ds.warnings.iter().map(roofline_engine::notice::Notice::from).collect());
    state.example.set(true);
    state.selected.set(None);
    if let Some(m) = example.machine.clone().or(ds.machine) {
        state.machine.set(m);
    }
    state.source.set(example.source.to_string());
    state.zoom.set(None);
    state.transfers.set(ds.transfers);
    let (runs, kernels) = trajectory(example, ds.kernels);
    // An example's steps ran on its one machine.
    let machine = state.machine.get_untracked();
    state.clear_runs();
    state.runs.set(runs.into_iter().map(|(name, ks)| crate::state::Run { name, kernels: crate::state::shown(ks), machine: machine.clone(), choice: None }).collect());
    state.kernels.set(crate::state::shown(kernels));
}

/// What an example shows: an optimisation path ([`Example::runs`]) shows its whole path,
/// every step but the last as an earlier run (named as the step) and the last step as the
/// current kernels, so the chart draws the trajectory and the table the last step's change;
/// any other example shows `kernels` with no earlier runs. Returns (earlier runs, kernels).
pub fn trajectory(example: &Example, kernels: Vec<KernelProfile>) -> (Vec<(String, Vec<KernelProfile>)>, Vec<KernelProfile>) {
    match example.runs.split_last() {
        Some((last, earlier)) => {
            let name = |i: usize| example.run_names.get(i).cloned().unwrap_or_else(|| format!("run {}", i + 1));
            let runs = earlier.iter().enumerate().map(|(i, ks)| (name(i), ks.clone())).collect();
            (runs, last.clone())
        }
        None => (Vec::new(), kernels),
    }
}

/// Loads an example into the page (fetching its files first if it has any).
pub fn load(state: AppState, example: Example) {
    match &example.data {
        Data::Kernels(kernels) => {
            let ds = Dataset { kernels: kernels.clone(), ..Dataset::default() };
            show(state, &example, ds);
        }
        Data::Files(_) => spawn_local(async move {
            let result = match fetch_example_files(&example).await {
                Ok(files) => crate::files::load_sources(files).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(ds) => show(state, &example, ds),
                Err(e) => state.error.set(Some(e)),
            }
        }),
    }
}

#[component]
pub fn ExamplePicker(state: AppState) -> impl IntoView {
    let items = examples::all();
    // One click loads an example and closes the menu.
    let pick = move |ex: Example| {
        crate::popover::close("menu-data");
        crate::popover::close(crate::toolbar::MORE_ID);
        load(state, ex);
    };
    view! {
        <section class="example-picker menu-section" aria-labelledby="examples-heading">
            <h2 class="menu-heading" id="examples-heading">"Examples"</h2>
            <ul role="list" aria-label="Built-in examples">
                {items
                    .into_iter()
                    .map(|ex| {
                        let source_id = format!("example-source-{}", ex.id);
                        let title = ex.title;
                        let source = ex.source;
                        let id = ex.id;
                        let ex = StoredValue::new(ex);
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="example-button"
                                    data-example=id
                                    aria-describedby=source_id.clone()
                                    on:click=handler(move |_: web_sys::MouseEvent| pick(ex.get_value()))
                                >
                                    {title}
                                </button>
                                <span class="example-source" id=source_id>{source}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
