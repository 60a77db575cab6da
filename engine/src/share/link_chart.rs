//! The chart a link opens, as the page draws it before the app has loaded (`first/`, the link
//! chart): everything [`View`] holds that the chart's pixels depend on, derived the way the
//! app derives it when it applies a view (`app/src/state.rs`, `AppState::apply`;
//! `app/src/chart_view.rs`, `current_scene`), so the two draw the same pixels (the browser test
//! `tests/e2e/link-chart.test.mjs` compares them).
//!
//! What the app would show beside the chart and that changes where the chart sits (an alert:
//! a machine this build does not know, a filter that is not a regular expression) is not
//! drawn here: [`LinkChart::of`] gives `None` and the page waits for the app. So does a filter
//! with regular-expression syntax beyond `|` (`^volta`, `gemm.*nn`): the link chart carries no
//! regex engine ([`selection::visible_words`]). So does a view
//! that compares runs (a v2 link): its arrows, marks and the earlier run's roofs need the
//! pairing and the comparison panel, which the first paint does not carry (it stays small).

use super::{quantise_kernels, View};
use crate::chart::{self, ChartInput, ModelCache, Mode, Scene, Theme, WordSize, Zoom};
use crate::choice::{self, ClockBasis};
use crate::domain::short_names::distinct_display_names;
use crate::model::{ComputeKind, Level, Machine};
use crate::{selection, KernelProfile};

/// A view ready to draw: the machine, the kernels as the page shows them and every setting the
/// chart takes from the link.
#[derive(Clone, Debug)]
pub struct LinkChart {
    pub machine: Machine,
    /// The link's kernels, rounded as the page shows them ([`quantise_kernels`]).
    pub kernels: Vec<KernelProfile>,
    /// Every kernel's short name, distinct where short names collide (the table's and the
    /// chart's names).
    pub names: Vec<String>,
    /// The kernels the filter and top-N let through, in the dataset's order.
    pub visible: Vec<usize>,
    /// The sentence above the chart and its warnings ([`choice::note`]), when the link carries
    /// the machine choice of a profile.
    pub note: Option<(String, Vec<String>)>,
    pub mode: Mode,
    pub compute: Option<ComputeKind>,
    pub hidden_levels: Vec<Level>,
    pub zoom: Option<Zoom>,
    /// The link's theme; `None` follows the system.
    pub theme: Option<Theme>,
    pub word: WordSize,
    /// The selected kernel, an index into the dataset.
    pub selected: Option<usize>,
    pub all_roofs: bool,
    pub color_by: chart::ColorBy,
}

impl LinkChart {
    /// The chart of `view`, or `None` where the app would show an alert above it.
    pub fn of(view: &View) -> Option<LinkChart> {
        if view.runs.is_some() {
            return None;
        }
        let machine = view.machine()?;
        let mut kernels = view.kernel_profiles();
        quantise_kernels(&mut kernels);
        let top_n = view.top_n.map(|n| n as usize);
        // A filter of plain words only: the regex engine is the app's ([`selection::visible_words`]).
        let visible = selection::visible_words(&kernels, &view.filter, top_n)?;
        let names = distinct_display_names(&kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>());
        let note = view.choice.as_ref().and_then(|c| {
            let chosen = c.chosen?;
            let basis = c.clock.unwrap_or(ClockBasis::Stated);
            let (mut sentence, warnings) = choice::note(c.device.as_ref(), c.measured_sm_clock_hz, &machine, chosen, basis, None);
            sentence.push_str(&choice::kernel_clocks_clause(&machine, &kernels));
            Some((sentence, warnings))
        });
        Some(LinkChart {
            selected: view.selected.filter(|&i| i < kernels.len()),
            machine,
            kernels,
            names,
            visible,
            note,
            mode: view.chart_mode(),
            compute: view.compute_kind(),
            hidden_levels: view.hidden(),
            zoom: view.zoom,
            theme: view.chart_theme(),
            word: view.word(),
            all_roofs: view.all_roofs,
            color_by: view.colors(),
        })
    }

    /// The theme in force: the link's, else the system's.
    pub fn effective_theme(&self, system_dark: bool) -> Theme {
        self.theme.unwrap_or(if system_dark { Theme::Dark } else { Theme::Light })
    }

    /// The scene at `width` × `height` CSS pixels, as the app builds it: the visible kernels
    /// only, the selection mapped into them, ceilings and walls on (the app's defaults; a link
    /// does not carry them).
    pub fn scene(&self, width: f64, height: f64, system_dark: bool) -> Scene {
        let every = self.visible.len() == self.kernels.len() && self.visible.iter().enumerate().all(|(i, &v)| i == v);
        let (kernels, names): (Vec<KernelProfile>, Vec<String>) = if every {
            (Vec::new(), Vec::new())
        } else {
            self.visible.iter().filter_map(|&i| Some((self.kernels.get(i)?.clone(), self.names.get(i)?.clone()))).unzip()
        };
        let (kernels, names) = if every { (&self.kernels[..], &self.names[..]) } else { (&kernels[..], &names[..]) };
        let selected = self.selected.and_then(|s| self.visible.iter().position(|&i| i == s));
        let cache = every.then(|| ModelCache::new(&self.kernels, &self.machine, self.mode));
        let mut input = ChartInput::new(kernels, &self.machine, width, height)
            .with_names(names)
            .with_color_by(self.color_by)
            .with_mode(self.mode)
            .with_compute(self.compute)
            .with_selected(selected)
            .with_theme(self.effective_theme(system_dark))
            .with_zoom(self.zoom)
            .with_hidden_levels(&self.hidden_levels)
            .with_ceilings(true)
            .with_all_roofs(self.all_roofs)
            .with_walls(true)
            .with_word(self.word);
        if let Some(cache) = &cache {
            input = input.with_cache(cache);
        }
        chart::build(&input)
    }
}
