//! The page: state, loading (pick, drop, built-in example, address), and the layout.

use crate::chart_view::ChartView;
use crate::kernel_table::KernelTable;
use crate::{examples, files, perf, url_state};
use leptos::prelude::*;
use leptos::task::spawn_local;
use roofline_engine::chart::Mode;
use roofline_engine::model::{catalogue, Machine};
use roofline_engine::share::{SharedKernel, View};
use roofline_engine::{load_dataset, KernelProfile, SourceFile};

/// Everything the page shows. All fields are signals, so the struct is `Copy` and each
/// component reads only what it needs.
#[derive(Clone, Copy)]
pub struct AppState {
    pub kernels: RwSignal<Vec<KernelProfile>>,
    pub machine: RwSignal<Machine>,
    pub selected: RwSignal<Option<usize>>,
    pub mode: RwSignal<Mode>,
    /// What the data is: file names or the example's source.
    pub source: RwSignal<String>,
    /// The last error, shown in `role="alert"`; the previous view stays.
    pub error: RwSignal<Option<String>>,
    /// Set while a load is in flight, so the next paint closes `roofline:load`.
    pub loading_mark: RwSignal<bool>,
}

impl AppState {
    fn new() -> Self {
        AppState {
            kernels: RwSignal::new(Vec::new()),
            machine: RwSignal::new(catalogue::v100()),
            selected: RwSignal::new(None),
            mode: RwSignal::new(Mode::Classic),
            source: RwSignal::new(String::new()),
            error: RwSignal::new(None),
            loading_mark: RwSignal::new(false),
        }
    }

    /// Restores the view in the address, or shows the built-in example.
    fn start(self) {
        match url_state::read() {
            Some(Ok(view)) => self.apply(view),
            Some(Err(e)) => {
                self.error.set(Some(e.to_string()));
                self.show_example();
            }
            None => self.show_example(),
        }
    }

    fn show_example(self) {
        self.kernels.set(examples::course_v100());
        self.source.set(examples::COURSE_V100_SOURCE.into());
    }

    fn apply(self, view: View) {
        if let Some(m) = catalogue::by_id(&view.machine) {
            self.machine.set(m);
        } else {
            self.error.set(Some(format!("the link names machine \"{}\", which this version does not know; showing V100", view.machine)));
        }
        let kernels: Vec<KernelProfile> = view.kernels.iter().map(KernelProfile::from).collect();
        self.mode.set(Mode::from_id(&view.mode).unwrap_or_default());
        self.selected.set(view.selected.filter(|&i| i < kernels.len()));
        self.kernels.set(kernels);
        self.source.set("Shared link".into());
    }

    fn view(self) -> View {
        View {
            machine: self.machine.with(|m| m.id.clone()),
            mode: self.mode.get().id().into(),
            selected: self.selected.get(),
            kernels: self.kernels.with(|ks| ks.iter().map(SharedKernel::from).collect()),
        }
    }

    /// Parses files into a new dataset; on error the previous view stays and the alert says why.
    fn load(self, sources: Vec<SourceFile>) {
        if sources.is_empty() {
            return;
        }
        perf::mark("roofline:parse-start");
        let result = load_dataset(&sources);
        perf::measure("roofline:parse", "roofline:parse-start");
        match result {
            Ok(ds) if ds.kernels.is_empty() => {
                let names: Vec<_> = sources.iter().map(|s| s.name.as_str()).collect();
                self.error.set(Some(format!("{}: no kernels found", names.join(", "))));
                self.loading_mark.set(false);
            }
            Ok(ds) => {
                self.error.set(None);
                self.source.set(ds.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", "));
                if let Some(m) = ds.machine {
                    self.machine.set(m);
                }
                self.selected.set(None);
                self.kernels.set(ds.kernels);
            }
            Err(e) => {
                self.error.set(Some(e.to_string()));
                self.loading_mark.set(false);
            }
        }
    }

    fn load_file_list(self, list: Option<web_sys::FileList>) {
        let Some(list) = list else { return };
        perf::mark("roofline:load-start");
        self.loading_mark.set(true);
        spawn_local(async move {
            match files::read_file_list(list).await {
                Ok(sources) => self.load(sources),
                Err(e) => {
                    self.error.set(Some(e));
                    self.loading_mark.set(false);
                }
            }
        });
    }
}

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    state.start();
    // Keep the address in step with the view (replaceState: no history entries, no scroll).
    Effect::new(move |_| url_state::write(&state.view()));

    let (dragging, set_dragging) = signal(false);
    let machines = catalogue::all();

    view! {
        <div
            class="app"
            class:dragging=dragging
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                set_dragging.set(true);
            }
            on:dragleave=move |_| set_dragging.set(false)
            on:drop=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                set_dragging.set(false);
                state.load_file_list(ev.data_transfer().and_then(|dt| dt.files()));
            }
        >
            <header>
                <h1>"Roofline Explorer"</h1>
                <p class="tagline">"Drop profiler CSVs anywhere on the page. Nothing leaves your browser."</p>
            </header>
            <section class="controls" aria-label="Data and machine">
                <label class="file-button">
                    "Open profiler files…"
                    <input
                        type="file"
                        id="file-input"
                        multiple
                        aria-label="Open profiler files"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            state.load_file_list(input.files());
                        }
                    />
                </label>
                <label>
                    "Machine "
                    <select
                        aria-label="Machine"
                        on:change=move |ev| {
                            if let Some(m) = catalogue::by_id(&event_target_value(&ev)) {
                                state.machine.set(m);
                            }
                        }
                        prop:value=move || state.machine.with(|m| m.id.clone())
                    >
                        {machines.into_iter().map(|m| view! { <option value=m.id.clone()>{m.name.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button type="button" on:click=move |_| { state.error.set(None); state.selected.set(None); state.show_example(); }>"Show example"</button>
                <span class="source" aria-live="polite">{move || state.source.get()}</span>
            </section>
            <div class="alert" role="alert" hidden=move || state.error.with(Option::is_none)>
                {move || state.error.get().unwrap_or_default()}
            </div>
            <main>
                <ChartView state=state />
                <KernelTable state=state />
            </main>
            <footer>
                "Machine: " {move || state.machine.with(|m| format!("{} — {}", m.name, m.source))}
            </footer>
        </div>
    }
}
