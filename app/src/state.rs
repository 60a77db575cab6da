//! The page's state: the signals every component reads (`AppState`), the memos derived from
//! them, and the actions on them (loading a dataset, the address's view, the machine choice).
//! Components depend on this module; `app.rs` only lays them out.

use crate::{examples, files, perf, url_state};
use leptos::prelude::*;
use leptos::task::spawn_local;
use roofline_engine::chart::controls::{self, Controls};
use roofline_engine::chart::{places, ColorBy, Mode, ModelCache, Theme, WordSize, Zoom};
use roofline_engine::domain::short_names::distinct_display_names;
use roofline_engine::notice::{capitalise, Notice};
use roofline_engine::domain::Transfer;
use roofline_engine::model::{catalogue, ComputeKind, Level, Machine};
use roofline_engine::choice::{self, ClockBasis, ClockChoice, Chosen};
use roofline_engine::domain::Device;
use roofline_engine::compare::ManualPairs;
use roofline_engine::share::{self, SharedKernel, SharedRun, View, ViewChoice, ViewRuns};
use roofline_engine::provenance::Origin;
use roofline_engine::report::{self, AnalyzeReport};
use roofline_engine::{selection, Dataset, KernelProfile, SourceFile};

/// A run compared with the current kernels, complete: judged against its own machine, so an
/// A100 run and an H100 run each meet their own roofs.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub name: String,
    pub kernels: Vec<KernelProfile>,
    pub machine: Machine,
    /// How its machine was chosen (the sentence a reopened link says).
    pub choice: Option<ViewChoice>,
}

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
    /// Chart settings: zoomed data ranges (`None`: automatic), compute roof (`None`: the
    /// dominant precision), hidden memory levels, ceilings and walls on/off, LD/ST word size.
    pub zoom: RwSignal<Option<Zoom>>,
    pub compute: RwSignal<Option<ComputeKind>>,
    pub hidden_levels: RwSignal<Vec<Level>>,
    pub show_ceilings: RwSignal<bool>,
    pub show_walls: RwSignal<bool>,
    pub word: RwSignal<WordSize>,
    /// Host↔device copies of the dataset (transfers chart).
    pub transfers: RwSignal<Vec<Transfer>>,
    /// `None` follows the system (`prefers-color-scheme`).
    pub theme: RwSignal<Option<Theme>>,
    /// Whether the system prefers dark (kept current by a media-query listener).
    pub system_dark: RwSignal<bool>,
    /// The chart's size in CSS pixels: its container's width, and the height left in the
    /// window below the toolbar (chart_view.rs), so the whole chart is in the first screen.
    pub chart_size: RwSignal<(f64, f64)>,
    /// The data ranges of the chart on screen (set as it is drawn), for the keyboard's zoom
    /// about its centre (`chart_view::zoom_centre`), which so needs no scene of its own. Read
    /// untracked only; a signal of `zoom`'s type, so it adds no code of its own.
    pub shown_ranges: RwSignal<Option<Zoom>>,
    /// What the last address update had to say (names shortened, view too large).
    pub link_notice: RwSignal<Option<String>>,
    /// Whether the keyboard help is open.
    pub help_open: RwSignal<bool>,
    /// Fraction of the files read while loading, `None` when idle.
    pub progress: RwSignal<Option<f64>>,
    /// What the last load could not use (missing metrics and the command that collects
    /// them, unusable times, a cut file): the data loaded, but the user should know. Each a
    /// short sentence with its detail (the engine's `notice::Notice`).
    pub warnings: RwSignal<Vec<Notice>>,
    /// Earlier runs to compare the current kernels with, oldest first, each complete: its
    /// name (files, step), kernels as shown, and its own machine and choice (issue 44).
    /// Empty: one run. Added by "Add a run…" (compare.rs) or a trajectory example; loading a
    /// fresh dataset clears them. In links as v2 (docs/SHARING.md).
    pub runs: RwSignal<Vec<Run>>,
    /// The user's pairing of the last earlier run's kernels with the current ones, by index
    /// (`compare::pair_manual`); cleared with the runs.
    pub pairs: RwSignal<ManualPairs>,
    /// What the loaded profile says about its device (issue 12): the device, the SM clock it
    /// measured, the machine it was identified as, and the other machines it offers.
    pub profile: RwSignal<Profile>,
    /// Where the machine came from and at which clock; `None` while the built-in example shows.
    pub chosen: RwSignal<Option<Chosen>>,
    pub clock_basis: RwSignal<ClockBasis>,
    /// Draw every compute roof, not only those of the data types the kernels use.
    pub all_roofs: RwSignal<bool>,
    /// The sentence above the chart and its warnings (the engine's `choice::note`).
    pub machine_note: Memo<Option<(String, Vec<String>)>>,
    /// Whether the kernels shown are a built-in example (not the user's data): a machine
    /// file then replaces them instead of judging them against its roofs.
    pub example: RwSignal<bool>,
    /// What the classic chart's dot colours mean.
    pub color_by: RwSignal<ColorBy>,
    /// Every kernel's short name, distinct where short names collide (the engine's
    /// `short_names`): the table's names, the chart's labels.
    pub names: Memo<Vec<String>>,
    /// The chart settings that apply to the mode and the data (the engine's `chart::controls`).
    pub controls: Memo<Controls>,
    /// How many kernels, and how much of the run time, are outside the plot and where
    /// (the engine's `chart::places` note), `None` when every kernel is in it.
    pub kernel_note: Memo<Option<String>>,
    /// The model's results for the dataset on the machine in the mode (the engine's
    /// `chart::ModelCache`): a redraw that only zooms, pans, hovers or selects maps them to
    /// pixels instead of reading 10,000 kernels again (docs/PERFORMANCE.md).
    pub chart_cache: Memo<ModelCache>,
}

/// The machine chosen for a dataset, not yet applied (`AppState::decide_machine`).
struct Decided {
    profile: Profile,
    picked: Result<choice::MachineChoice, String>,
}

/// A profile's device as the machine choice needs it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    pub device: Option<Device>,
    pub measured_sm_clock_hz: Option<f64>,
    /// Nsight Compute files (they lock clocks to base: the fallback without a measured clock).
    pub from_ncu: bool,
    /// The machine the device was identified as ([`choice::profile_machines`]).
    pub identified: Option<Machine>,
    /// Other machines the files offer: the data sheet's beside Nsight Compute's own peaks,
    /// Advisor's single-threaded roofs.
    pub alternatives: Vec<Machine>,
    /// The profiler whose metrics the kernels came from: the provenance panel names them.
    pub origin: Origin,
}

impl AppState {
    pub(crate) fn new() -> Self {
        Self::new_with(crate::theme::system_prefers_dark())
    }

    /// [`Self::new`] with the system's dark preference given, not asked of the page (the
    /// worker's warm-up, warm.rs, runs without one).
    pub(crate) fn new_with(system_dark: bool) -> Self {
        let kernels: RwSignal<Vec<KernelProfile>> = RwSignal::new(Vec::new());
        let machine = RwSignal::new(catalogue::v100());
        let filter = RwSignal::new(String::new());
        let top_n = RwSignal::new(None);
        // A large load's report and names were worked out before it was shown (prepare.rs).
        let report = Memo::new(move |_| kernels.with(|ks| machine.with(|m| crate::prepare::take_report(ks, m).unwrap_or_else(|| report::analyze_kernels(ks, Some(m))))));
        let visible = Memo::new(move |_| kernels.with(|ks| selection::visible(ks, &filter.get(), top_n.get())));
        let profile = RwSignal::new(Profile::default());
        let chosen: RwSignal<Option<Chosen>> = RwSignal::new(None);
        let clock_basis = RwSignal::new(ClockBasis::Stated);
        let machine_note = Memo::new(move |_| {
            let c = chosen.get()?;
            let basis = clock_basis.get();
            profile.with(|p| {
                machine.with(|m| {
                    let (mut sentence, warnings) = choice::note(p.device.as_ref(), p.measured_sm_clock_hz, m, c, basis, p.identified.as_ref());
                    sentence.push_str(&kernels.with(|ks| choice::kernel_clocks_clause(m, ks)));
                    Some((sentence, warnings))
                })
            })
        });
        let mode = RwSignal::new(Mode::Classic);
        let names = Memo::new(move |_| kernels.with(|ks| crate::prepare::take_names(ks).unwrap_or_else(|| distinct_display_names(&ks.iter().map(|k| k.name.as_str()).collect::<Vec<_>>()))));
        let controls = Memo::new(move |_| kernels.with(|ks| machine.with(|m| controls::controls(ks, m, mode.get()))));
        let kernel_note = Memo::new(move |_| kernels.with(|ks| machine.with(|m| places::places(ks, m, mode.get()).note())));
        let chart_cache = Memo::new(move |_| kernels.with(|ks| machine.with(|m| ModelCache::new(ks, m, mode.get()))));
        AppState {
            kernels,
            machine,
            selected: RwSignal::new(None),
            mode,
            source: RwSignal::new(String::new()),
            error: RwSignal::new(None),
            loading_mark: RwSignal::new(false),
            filter,
            top_n,
            report,
            visible,
            row_order: RwSignal::new(Vec::new()),
            zoom: RwSignal::new(None),
            compute: RwSignal::new(None),
            hidden_levels: RwSignal::new(Vec::new()),
            show_ceilings: RwSignal::new(true),
            show_walls: RwSignal::new(true),
            word: RwSignal::new(WordSize::Bits32),
            transfers: RwSignal::new(Vec::new()),
            theme: RwSignal::new(None),
            system_dark: RwSignal::new(system_dark),
            chart_size: RwSignal::new(crate::export::DEFAULT_SIZE),
            shown_ranges: RwSignal::new(None),
            link_notice: RwSignal::new(None),
            help_open: RwSignal::new(false),
            progress: RwSignal::new(None),
            warnings: RwSignal::new(Vec::new()),
            runs: RwSignal::new(Vec::new()),
            pairs: RwSignal::new(ManualPairs::default()),
            profile,
            chosen,
            clock_basis,
            all_roofs: RwSignal::new(false),
            machine_note,
            example: RwSignal::new(false),
            color_by: RwSignal::new(ColorBy::default()),
            names,
            controls,
            kernel_note,
            chart_cache,
        }
    }

    /// Picks the machine for a dataset and its clock (the engine's `choice::choose`): a machine
    /// file among the files, else the profile's own GPU, else the machine shown now (V100 at
    /// first; a catalogue CPU for a CPU profile) at the clock the profile measured. Decided
    /// before the load's report is prepared (prepare.rs), applied when the load is shown
    /// ([`Self::apply_machine`]).
    fn decide_machine(self, ds: &Dataset) -> Decided {
        let from_ncu = ds.files.iter().any(|f| f.format.starts_with("ncu"));
        let measured = ds.measured_sm_clock_hz();
        let profiled = choice::profile_machines(ds);
        let mut alternatives: Vec<Machine> = profiled.as_ref().map(|(_, alts, _)| alts.clone()).unwrap_or_default();
        alternatives.extend(ds.machine_alternatives.iter().cloned());
        let identified = profiled.as_ref().map(|(m, _, _)| m.clone());
        let current = untrack(move || self.machine.get());
        let picked = match choice::choose(ds, None, ClockChoice::Measured) {
            Ok(Some(c)) => Ok(c),
            Ok(None) => {
                // A CPU profile gets a CPU, never the GPU on screen (choice::fallback_machine).
                let start = choice::fallback_machine(ds, catalogue::by_id(&current.id).unwrap_or(current));
                // The sentence says when the files name no GPU; an unknown one, or a CPU
                // profile's missing CPU, needs saying.
                let unknown = (ds.main_device().is_some() || choice::is_cpu_profile(ds)).then(|| choice::no_machine_reason(ds));
                choice::choose(ds, Some(start), ClockChoice::Measured).and_then(|c| c.ok_or_else(|| "no machine".to_string())).map(|mut c| {
                    c.warnings.splice(0..0, unknown);
                    c
                })
            }
            Err(e) => Err(e),
        };
        let origin = Origin::of_files(ds.files.iter().map(|f| f.format));
        Decided { profile: Profile { device: ds.main_device().map(|r| r.device.clone()), measured_sm_clock_hz: measured, from_ncu, identified, alternatives, origin }, picked }
    }

    /// Applies a [`Self::decide_machine`] choice; returns what the choice has to say.
    fn apply_machine(self, choice: Decided) -> Vec<Notice> {
        let Decided { profile, picked } = choice;
        self.profile.set(profile);
        match picked {
            Ok(c) => {
                self.machine.set(c.machine);
                self.clock_basis.set(c.clock);
                self.chosen.set(Some(c.chosen));
                c.warnings.iter().map(|w| Notice::plain(w)).collect()
            }
            Err(e) => vec![Notice::plain(&e)],
        }
    }

    /// The theme in force: the user's choice, else the system's.
    pub fn effective_theme(self) -> Theme {
        self.theme.get().unwrap_or(if self.system_dark.get() { Theme::Dark } else { Theme::Light })
    }

    /// Restores the view in the address, or shows the built-in example (and, for a `#url=`
    /// address, asks whether to load its file: open_url.rs).
    pub(crate) fn start(self) {
        if !crate::open_url::start(self) {
            self.start_with(url_state::read());
        }
    }

    /// [`Self::start`] with the address's view already read (`None`: the address has none).
    pub(crate) fn start_with(self, address: Option<Result<View, share::DecodeError>>) {
        match address {
            Some(Ok(view)) => self.apply(view),
            Some(Err(e)) => {
                self.error.set(Some(capitalise(&e.to_string())));
                self.show_example();
            }
            None => self.show_example(),
        }
    }

    fn show_example(self) {
        self.warnings.set(Vec::new());
        self.chosen.set(None);
        self.profile.set(Profile::default());
        self.clear_runs();
        self.zoom.set(None);
        self.transfers.set(Vec::new());
        self.kernels.set(shown(examples::course_v100()));
        self.source.set(examples::COURSE_V100_SOURCE.into());
        self.example.set(true);
    }

    fn apply(self, view: View) {
        self.warnings.set(Vec::new());
        match view.machine() {
            Some(m) => self.machine.set(m),
            None => self.error.set(Some(format!("The link names machine \"{}\", which this version does not know; showing V100", view.machine_id))),
        }
        let kernels: Vec<KernelProfile> = view.kernel_profiles();
        self.mode.set(view.chart_mode());
        self.compute.set(view.compute_kind());
        self.hidden_levels.set(view.hidden());
        self.zoom.set(view.zoom);
        self.filter.set(view.filter.clone());
        self.top_n.set(view.top_n.map(|n| n as usize));
        self.theme.set(view.chart_theme());
        self.word.set(view.word());
        self.selected.set(view.selected.filter(|&i| i < kernels.len()));
        self.all_roofs.set(view.all_roofs);
        self.color_by.set(view.colors());
        self.example.set(false);
        match &view.choice {
            Some(c) => {
                self.chosen.set(c.chosen);
                self.clock_basis.set(c.clock.unwrap_or(ClockBasis::Stated));
                self.profile.set(Profile { device: c.device.clone(), measured_sm_clock_hz: c.measured_sm_clock_hz, ..Profile::default() });
            }
            None => {
                self.chosen.set(None);
                self.profile.set(Profile::default());
            }
        }
        self.transfers.set(Vec::new());
        self.clear_runs();
        // Each earlier run against its own machine; one this build does not know, against the
        // current run's (the note says so).
        if let Some(r) = &view.runs {
            let fallback = self.machine.get_untracked();
            let unknown: Vec<&str> = r.earlier.iter().filter(|e| e.machine().is_none()).map(|e| e.machine_id.as_str()).collect();
            if let Some(id) = unknown.first() {
                self.error.set(Some(format!("An earlier run names machine \"{id}\", which this version does not know; it is drawn against the current run's")));
            }
            let runs = r.earlier.iter().map(|e| Run { name: e.name.clone(), kernels: shown(e.kernel_profiles()), machine: e.machine().unwrap_or_else(|| fallback.clone()), choice: e.choice.clone() }).collect();
            self.runs.set(runs);
            self.pairs.set(ManualPairs { pairs: r.pairs.clone(), unpaired_before: r.unpaired_before.clone(), unpaired_after: r.unpaired_after.clone() });
        }
        self.kernels.set(shown(kernels));
        self.source.set(view.runs.as_ref().map_or_else(|| "Shared view".into(), |r| r.name.clone()));
    }

    /// The view as the address carries it, without subscribing (for event handlers).
    pub fn view_untracked(self) -> View {
        untrack(move || self.view())
    }

    /// The view as the address carries it; tracks every signal it reads.
    pub fn view(self) -> View {
        let mut view = View {
            mode: self.mode.get().id().into(),
            compute: self.compute.get().map(|k| share::compute_id(k).to_string()),
            hidden_levels: self.hidden_levels.get().into_iter().map(|l| share::level_id(l).to_string()).collect(),
            zoom: self.zoom.get(),
            filter: self.filter.get(),
            top_n: self.top_n.get().map(|n| n.min(u32::MAX as usize) as u32),
            selected: self.selected.get(),
            theme: self.theme.get().map(|t| share::theme_id(t).to_string()),
            word_bytes: if self.word.get() == WordSize::Bits32 { 4 } else { 8 },
            kernels: self.kernels.with(|ks| ks.iter().map(SharedKernel::from).collect()),
            all_roofs: self.all_roofs.get(),
            color_by: Some(self.color_by.get()).filter(|c| *c != ColorBy::default()).map(|c| c.id().to_string()),
            choice: self.chosen.get().map(|c| self.profile.with(|p| ViewChoice::of(c, self.clock_basis.get(), p.device.as_ref(), p.measured_sm_clock_hz))),
            ..View::default()
        };
        // By catalogue id when unedited, else the whole machine.
        self.machine.with(|m| view.set_machine(m));
        view.runs = self.runs.with(|runs| {
            (!runs.is_empty()).then(|| {
                let earlier = runs
                    .iter()
                    .map(|r| SharedRun { choice: r.choice.clone(), ..SharedRun::new(&r.name, &r.machine, &r.kernels) })
                    .collect();
                let ManualPairs { pairs, unpaired_before, unpaired_after } = self.pairs.get();
                ViewRuns { name: self.source.get(), earlier, pairs, unpaired_before, unpaired_after }
            })
        });
        view
    }

    /// The current kernels as a run, with their machine and its choice: what "Add a run…"
    /// keeps when new files come.
    pub fn current_run(self) -> Run {
        untrack(move || Run {
            name: self.source.get(),
            kernels: self.kernels.get(),
            machine: self.machine.get(),
            choice: self.chosen.get().map(|c| self.profile.with(|p| ViewChoice::of(c, self.clock_basis.get(), p.device.as_ref(), p.measured_sm_clock_hz))),
        })
    }

    /// Back to one run: the earlier runs and the user's pairs go.
    pub fn clear_runs(self) {
        self.runs.set(Vec::new());
        self.pairs.set(ManualPairs::default());
    }

    /// Decides the machine of a dataset about to be shown and applies it, as a load does
    /// (`choice::choose`): a compared run gets its own machine and clock. Its notices.
    pub(crate) fn choose_machine(self, ds: &Dataset) -> Vec<Notice> {
        let decided = self.decide_machine(ds);
        self.apply_machine(decided)
    }

    /// Parses in-memory files (pasted text) into a new dataset, in the parser worker.
    pub fn load(self, sources: Vec<SourceFile>) {
        if sources.is_empty() {
            return;
        }
        perf::mark("roofline:load-start");
        self.loading_mark.set(true);
        perf::mark("roofline:parse-start");
        spawn_local(async move {
            let result = files::load_sources(sources).await;
            perf::measure("roofline:parse", "roofline:parse-start");
            self.show_dataset(result).await;
        });
    }

    /// Shows a parsed dataset; on error the previous view stays and the alert says why.
    async fn show_dataset(self, result: Result<Dataset, String>) {
        match result {
            Ok(ds) if ds.kernels.is_empty() && ds.machine.is_some() => {
                // A machine file alone (ERT, Advisor roofs, rocprof-compute): new ceilings.
                // The user's kernels stay and are judged against them; a built-in example is
                // not the user's data, so it goes, and the chart waits for a profile.
                self.error.set(None);
                if self.example.get_untracked() {
                    self.example.set(false);
                    self.clear_runs();
                    self.transfers.set(Vec::new());
                    self.selected.set(None);
                    self.zoom.set(None);
                    self.warnings.set(Vec::new());
                    self.kernels.set(Vec::new());
                    self.profile.set(Profile::default());
                }
                self.source.set(describe_files(&ds));
                // A profile dropped with the machine file and left out is named (issue 41).
                if !ds.warnings.is_empty() {
                    self.warnings.set(ds.warnings.iter().map(Notice::from).collect());
                }
                self.machine.set(ds.machine.unwrap_or_else(catalogue::v100));
                self.clock_basis.set(ClockBasis::Stated);
                self.chosen.set(Some(Chosen::File));
                self.loading_mark.set(false);
            }
            Ok(ds) if ds.kernels.is_empty() => self.load_failed(no_kernels(&ds)),
            Ok(mut ds) => {
                // The machine is chosen, and the report and names of a large load worked out a
                // part per task (prepare.rs), before anything of the load is shown.
                let cancelled = files::cancelled_since_now();
                let ticket = crate::prepare::ticket();
                let choice = self.decide_machine(&ds);
                ds.kernels = shown(std::mem::take(&mut ds.kernels));
                let machine = choice.picked.as_ref().ok().map_or_else(|| self.machine.get_untracked(), |c| c.machine.clone());
                if let Err(e) = crate::prepare::prepare(&ds.kernels, &machine, cancelled).await {
                    crate::prepare::forget();
                    return self.load_failed(e);
                }
                if !crate::prepare::may_show(ticket) {
                    // A load whose answer came later has been shown meanwhile: it stays.
                    crate::prepare::forget();
                    return;
                }
                self.show_decided(ds, choice);
            }
            Err(e) => self.load_failed(e),
        }
    }

    /// Shows a loaded dataset, its kernels already [`shown`], with the machine `choice` made
    /// for it: the load's warnings and the choice's; earlier runs cleared.
    fn show_decided(self, ds: Dataset, choice: Decided) {
        let mut warnings: Vec<Notice> = ds.warnings.iter().map(Notice::from).collect();
        warnings.extend(self.apply_machine(choice));
        self.warnings.set(warnings);
        self.clear_runs();
        self.show_shown_kernels(ds);
    }

    /// What [`Self::show_dataset`] does with a dataset of kernels, in one go (no report worked
    /// out ahead in the page's tasks, no turn among loads): for the warm-up of a load's code
    /// (`warm::warm_load`), which runs outside the page.
    pub(crate) fn show_loaded_now(self, mut ds: Dataset) {
        let choice = self.decide_machine(&ds);
        ds.kernels = shown(std::mem::take(&mut ds.kernels));
        self.show_decided(ds, choice);
    }

    /// Makes a dataset with kernels the one shown: its kernels, machine (if it names one),
    /// transfers and source; selection and zoom reset. Earlier runs and warnings are the
    /// caller's (a new load clears the runs, a compared run adds to them).
    pub fn show_kernels(self, mut ds: Dataset) {
        ds.kernels = shown(std::mem::take(&mut ds.kernels));
        self.show_shown_kernels(ds);
    }

    /// [`Self::show_kernels`] of kernels already rounded as shown ([`shown`]).
    fn show_shown_kernels(self, ds: Dataset) {
        self.error.set(None);
        self.example.set(false);
        self.source.set(describe_files(&ds));
        self.selected.set(None);
        self.zoom.set(None);
        self.transfers.set(ds.transfers);
        self.kernels.set(ds.kernels);
    }

    /// A load that gave nothing to show: the alert says why, the previous view stays.
    /// A load the user cancelled (`files::CANCELLED`) says nothing.
    pub fn load_failed(self, message: String) {
        if message != files::CANCELLED {
            self.error.set(Some(message));
        }
        self.loading_mark.set(false);
    }

    /// Reads and parses dropped files in chunks, with progress (files.rs).
    pub fn load_file_list(self, list: Option<web_sys::FileList>) {
        self.load_files(list, None);
    }

    /// Reads and parses the files picked in `input`, then empties it, so that picking the
    /// same file again (fixed after an error, or after a load that failed) is a new load:
    /// browsers fire no `change` for the same selection. Not before the load ends: emptying
    /// the input empties its live `FileList`.
    pub fn load_picked(self, input: web_sys::HtmlInputElement) {
        self.load_files(input.files(), Some(input));
    }

    fn load_files(self, list: Option<web_sys::FileList>, input: Option<web_sys::HtmlInputElement>) {
        let Some(list) = list else { return };
        if list.length() == 0 {
            return;
        }
        perf::mark("roofline:load-start");
        perf::mark("roofline:parse-start");
        self.loading_mark.set(true);
        self.progress.set(Some(0.0));
        spawn_local(async move {
            self.show_files(&list).await;
            if let Some(input) = input {
                input.set_value("");
            }
        });
    }

    pub(crate) async fn show_files(self, list: &web_sys::FileList) {
        let result = files::load_file_list(list.clone(), |done, total| self.progress.set(Some(if total > 0.0 { done / total } else { 1.0 }))).await;
        perf::measure("roofline:parse", "roofline:parse-start");
        self.progress.set(None);
        // A `.roofline.json` view file restores the whole view (mode, zoom, filter, …),
        // not only its kernels and machine.
        let view_file = matches!(&result, Ok(ds) if ds.files.len() == 1 && ds.files[0].format == "roofline-view");
        if view_file {
            let view = files::first_file_text(list).await.and_then(|t| share::file::from_document(&crate::json::BrowserJson::new(&t)).map_err(|e| e.to_string()));
            match view {
                Ok(view) => {
                    self.error.set(None);
                    self.apply(view);
                    return;
                }
                Err(e) => return self.show_dataset(Err(e)).await,
            }
        }
        self.show_dataset(result).await;
    }
}

/// The alert for files that parsed but hold no kernels.
pub fn no_kernels(ds: &Dataset) -> String {
    let names: Vec<_> = ds.files.iter().map(|f| f.path.as_str()).collect();
    format!("No kernels found in {}", names.join(", "))
}

/// "name" for one file ("name (Nsight Compute 2025.1.0.0 …)" when the file says which tool
/// wrote it), "N files: a, b, …" for several (the full list is in the title).
fn describe_files(ds: &Dataset) -> String {
    match ds.files.as_slice() {
        [one] => match &one.tool {
            Some(tool) => format!("{} ({tool})", one.path),
            None => one.path.clone(),
        },
        files => format!("{} files: {}", files.len(), files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ")),
    }
}

/// Kernels as the page shows them: rounded to what a link carries, so that reopening the
/// address gives identical numbers and pixels (share::quantise_kernels).
pub fn shown(mut kernels: Vec<KernelProfile>) -> Vec<KernelProfile> {
    share::quantise_kernels(&mut kernels);
    kernels
}
