//! `share::LinkChart`: a link's chart as the page draws it before the app (first/), from the
//! committed v1 links (engine/tests/fixtures/links/, described in share_fixtures.rs) and views
//! made here. The browser test tests/e2e/link-chart.test.mjs checks that the app then draws the
//! same pixels; these check the derivation itself against values worked out by hand.

use roofline_engine::chart::{self, ChartInput, Marker, Mode, Theme, WordSize};
use roofline_engine::choice::{Chosen, ClockBasis};
use roofline_engine::domain::{Device, Vendor};
use roofline_engine::model::{catalogue, ComputeKind};
use roofline_engine::share::{self, LinkChart, View, ViewChoice};

fn fixture(name: &str) -> View {
    let path = format!("{}/tests/fixtures/links/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    share::decode(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_course_link_draws_both_kernels_on_the_v100_with_ax_selected() {
    let c = LinkChart::of(&fixture("v1-course.txt")).expect("drawable");
    assert_eq!((c.machine.id.as_str(), c.mode, c.selected, c.visible.as_slice()), ("v100", Mode::Classic, Some(0), &[0usize, 1][..]));
    // The short names the table and the chart labels show (domain::short_names).
    assert_eq!(c.names, ["ax_kernel", "gemm"]);
    assert_eq!(c.kernels[0].name, "ax_kernel (x ← αx, n = 5e8)");
    assert_eq!((c.word, c.theme, c.note.is_none()), (WordSize::Bits64, None, true));
    assert_eq!(c.effective_theme(true), Theme::Dark, "no theme in the link: the system's");
    let scene = c.scene(800.0, 500.0, false);
    let dots: Vec<_> = scene.hits.iter().filter(|h| h.marker == Marker::Level).collect();
    assert_eq!(dots.len(), 2);
    // ax: 499,998,720 FLOPs over 7,999,979,520 bytes = 0.0625 FLOP/byte (the quantised link
    // values; 1/16 as the slide's x ← αx: one FLOP per 16 bytes); gemm: 250,001,489,920 over
    // 7,812,546,560 = 32 FLOP/byte, at 250,001,489,920 / 0.0410003662109375 s = 6.0975e12 FLOP/s.
    let ax = dots.iter().find(|h| h.kernel == 0).expect("ax dot");
    let gemm = dots.iter().find(|h| h.kernel == 1).expect("gemm dot");
    assert!((scene.x.from_px(ax.cx) / 0.0625 - 1.0).abs() < 1e-9, "{}", scene.x.from_px(ax.cx));
    assert!((scene.x.from_px(gemm.cx) / 32.0 - 1.0).abs() < 1e-9, "{}", scene.x.from_px(gemm.cx));
    assert!((scene.y.from_px(gemm.cy) / 6.097_542_852e12 - 1.0).abs() < 1e-6, "{}", scene.y.from_px(gemm.cy));
}

#[test]
fn the_deep_learning_link_keeps_its_top_20_mode_roof_and_selection() {
    let c = LinkChart::of(&fixture("v1-deeplearning-ncu.txt")).expect("drawable");
    assert_eq!((c.mode, c.compute, c.selected, c.kernels.len(), c.names.len(), c.visible.len()), (Mode::Hierarchical, Some(ComputeKind::Tensor), Some(6), 49, 49, 20));
    assert_eq!(c.machine.clock_hz, Some(1312e6), "the link's own machine, at its base clock");
    assert!(c.visible.windows(2).all(|w| w[0] < w[1]), "in the dataset's order");
    // The scene holds the 20 visible kernels only: its indices are positions among them.
    let scene = c.scene(900.0, 600.0, false);
    assert!(!scene.hits.is_empty() && scene.hits.iter().all(|h| h.kernel < 20));
}

#[test]
fn a_filtered_view_draws_what_the_app_draws_for_it() {
    let mut view = fixture("v1-course.txt");
    view.filter = "GEMM".into();
    view.theme = Some("dark".into());
    view.word_bytes = 4;
    let c = LinkChart::of(&view).expect("drawable");
    assert_eq!((c.visible.as_slice(), c.selected, c.theme, c.word), (&[1usize][..], Some(0), Some(Theme::Dark), WordSize::Bits32));
    // The app (chart_view.rs, current_scene) charts the visible kernels with their names and the
    // selection mapped into them: ax is selected but filtered out, so nothing is selected.
    let shown = [c.kernels[1].clone()];
    let names = [c.names[1].clone()];
    let by_hand = chart::build(
        &ChartInput::new(&shown, &c.machine, 640.0, 480.0)
            .with_names(&names)
            .with_theme(Theme::Dark)
            .with_word(WordSize::Bits32)
            .with_selected(None)
            .with_ceilings(true)
            .with_walls(true),
    );
    assert_eq!(c.scene(640.0, 480.0, false), by_hand);
}

#[test]
fn what_the_app_would_raise_an_alert_for_is_left_to_the_app() {
    let mut bad_filter = fixture("v1-course.txt");
    bad_filter.filter = "gemm(".into();
    assert!(LinkChart::of(&bad_filter).is_none(), "a filter that is not a regular expression");
    let mut unknown = fixture("v1-course.txt");
    unknown.machine_id = "a-gpu-of-2031".into();
    assert!(LinkChart::of(&unknown).is_none(), "a machine this build does not know");
}

#[test]
fn a_profiles_machine_choice_gives_the_sentence_above_the_chart() {
    let mut view = fixture("v1-course.txt");
    let device = Device { name: Some("Tesla V100-SXM2-16GB".into()), vendor: Some(Vendor::Nvidia), arch: Some("Volta".into()), sm_count: Some(80), ..Device::default() };
    let mut m = catalogue::v100();
    m.clock_hz = Some(1_312e6);
    view.set_machine(&m);
    view.choice = Some(ViewChoice::of(Chosen::Profile, ClockBasis::Measured, Some(&device), Some(1_297e6)));
    let c = LinkChart::of(&view).expect("drawable");
    let (sentence, warnings) = c.note.expect("a sentence");
    assert_eq!(sentence, "Profiled on Tesla V100-SXM2-16GB (Volta, 80 SMs) at 1297 MHz measured: roofs of NVIDIA V100 SXM2 at 1312 MHz (measured)");
    assert!(warnings.is_empty());
}
