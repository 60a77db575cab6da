//! The page: state, loading (pick, drop, built-in example, address), and the layout.

use crate::chart_view::ChartView;
use crate::collect_panel::CollectPanel;
use crate::kernel_table::KernelTable;
use crate::summary_panel::SummaryPanel;
use crate::{examples, files, perf, url_state};
use leptos::prelude::*;
use leptos::task::spawn_local;
use roofline_engine::chart::Mode;
use roofline_engine::model::{catalogue, Machine};
use roofline_engine::share::{SharedKernel, View};
use roofline_engine::report::{self, AnalyzeReport};
use roofline_engine::{load_dataset, selection, Dataset, KernelProfile, SourceFile};

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
    /// Kernel name filter (case-insensitive regex) and top-N by time.
    pub filter: RwSignal<String>,
    pub top_n: RwSignal<Option<usize>>,
    /// The engine's analysis of all kernels against the machine (as `roofline analyze`).
    pub report: Memo<AnalyzeReport>,
    /// Indices of the kernels the filter lets through, or the filter's error.
    pub visible: Memo<Result<Vec<usize>, String>>,
    /// Visible kernels in the table's sort order (for ↑/↓).
    pub row_order: RwSignal<Vec<usize>>,
}

impl AppState {
    fn new() -> Self {
        let kernels: RwSignal<Vec<KernelProfile>> = RwSignal::new(Vec::new());
        let machine = RwSignal::new(catalogue::v100());
        let filter = RwSignal::new(String::new());
        let top_n = RwSignal::new(None);
        let report = Memo::new(move |_| {
            let ds = Dataset { kernels: kernels.get(), ..Dataset::default() };
            machine.with(|m| report::analyze(&ds, Some(m)))
        });
        let visible = Memo::new(move |_| kernels.with(|ks| selection::visible(ks, &filter.get(), top_n.get())));
        AppState {
            kernels,
            machine,
            selected: RwSignal::new(None),
            mode: RwSignal::new(Mode::Classic),
            source: RwSignal::new(String::new()),
            error: RwSignal::new(None),
            loading_mark: RwSignal::new(false),
            filter,
            top_n,
            report,
            visible,
            row_order: RwSignal::new(Vec::new()),
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
        match view.machine() {
            Some(m) => self.machine.set(m),
            None => self.error.set(Some(format!("the link names machine \"{}\", which this version does not know; showing V100", view.machine_id))),
        }
        let kernels: Vec<KernelProfile> = view.kernel_profiles();
        self.mode.set(view.chart_mode());
        self.selected.set(view.selected.filter(|&i| i < kernels.len()));
        self.kernels.set(kernels);
        self.source.set("Shared link".into());
    }

    fn view(self) -> View {
        let mut view = View {
            mode: self.mode.get().id().into(),
            selected: self.selected.get(),
            kernels: self.kernels.with(|ks| ks.iter().map(SharedKernel::from).collect()),
            ..View::default()
        };
        // By catalogue id when unedited, else the whole machine.
        self.machine.with(|m| view.set_machine(m));
        view
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
                <div class="chart-row">
                    <ChartView state=state />
                    <aside class="side">
                        <SummaryPanel state=state />
                        <CollectPanel state=state />
                    </aside>
                </div>
                <KernelTable state=state />
            </main>
            <footer>
                "Machine: " {move || state.machine.with(|m| format!("{} — {}", m.name, m.source))}
            </footer>
        </div>
    }
}
