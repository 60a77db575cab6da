//! A chart built with a [`ModelCache`] is the chart built without one: for zoomed, panned,
//! selected and filtered views of the kernels the cache was made for, and (the cache then
//! unused) for other kernels or another machine.

use roofline_engine::chart::{self, ChartInput, Mode, ModelCache, Scene, Zoom};
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::{catalogue, Level, Machine};
use roofline_engine::KernelProfile;

/// 300 kernels over a few decades; every seventh has no FLOPs (a copy: the bandwidth strip)
/// and every eleventh no L2 bytes (two dots, not three).
fn kernels(scale: f64) -> Vec<KernelProfile> {
    (0..300)
        .map(|i| {
            let x = (i % 29) as f64 / 29.0;
            let mut c = Counters::default();
            c.set(Counter::TimeS, 1e-5 * (1.0 + 100.0 * x) * scale);
            if i % 7 != 0 {
                c.set(Counter::Fp32Fma, 1e6 * (1.0 + (i % 13) as f64) * 10f64.powf(3.0 * x));
                c.set(Counter::Fp64Add, 1e4 * (1 + i % 5) as f64);
            }
            c.set(Counter::DramBytes, 1e8 * (1.0 + x));
            if i % 11 != 0 {
                c.set(Counter::L2Bytes, 3e8 * (1.0 + x));
            }
            c.set(Counter::L1Bytes, 9e8 * (1.0 + x));
            c.set(Counter::WarpInst, 1e7 * (1.0 + x));
            c.set(Counter::GlobalTxn, 2e6 * (1.0 + x));
            KernelProfile { name: format!("kernel_{i}"), launches: 1, counters: c }
        })
        .collect()
}

fn machine(id: &str) -> Machine {
    match catalogue::by_id(id) {
        Some(m) => m,
        None => panic!("catalogue has no {id}"),
    }
}

/// The scene of `ks` on `m` in `mode` with the view settings `view`, with and without `cache`.
fn both(ks: &[KernelProfile], m: &Machine, mode: Mode, cache: &ModelCache, view: impl Fn(ChartInput) -> ChartInput) -> (Scene, Scene) {
    let input = || view(ChartInput::new(ks, m, 960.0, 595.0).with_mode(mode));
    (chart::build(&input().with_cache(cache)), chart::build(&input()))
}

const ZOOMED: Zoom = Zoom { x: [0.05, 20.0], y: [1e9, 3e12] };
static HIDDEN: [Level; 1] = [Level::L1];
const PANNED: Zoom = Zoom { x: [0.5, 200.0], y: [3e9, 1e13] };

#[test]
fn cached_scene_is_the_uncached_scene_when_zoomed_panned_or_selected() {
    let (ks, m) = (kernels(1.0), machine("a100"));
    let cache = ModelCache::new(&ks, &m, Mode::Hierarchical);
    assert!(cache.is_for(&ks, &m));
    let views: [&dyn Fn(ChartInput) -> ChartInput; 5] = [
        &|i| i,
        &|i| i.with_zoom(Some(ZOOMED)),
        &|i| i.with_zoom(Some(PANNED)).with_selected(Some(12)),
        &|i| i.with_zoom(Some(ZOOMED)).with_hidden_levels(&HIDDEN),
        &|i| i.with_ceilings(false).with_selected(Some(299)),
    ];
    for (n, view) in views.iter().enumerate() {
        let (cached, fresh) = both(&ks, &m, Mode::Hierarchical, &cache, view);
        assert_eq!(cached, fresh, "view {n}");
        // Hover reads the same dots from both (the grid is built on this first hover).
        let h = &fresh.hits[fresh.hits.len() / 2];
        assert_eq!(cached.hit_dot(h.cx, h.cy), fresh.hit_dot(h.cx, h.cy), "view {n}");
        assert_eq!(cached.hit_dot(h.cx, h.cy), Some(h), "view {n}");
        // A hovered scene (its grid built) still equals one never hovered.
        assert_eq!(cached, both(&ks, &m, Mode::Hierarchical, &cache, view).1, "view {n}");
    }
    // The chart has what the cache holds: 300 kernels, 43 without FLOPs in the strip
    // (0, 7, …, 294), 28 with no L2 dot (0, 11, …, 297; 0, 77, 154, 231 are copies):
    // 257 × 3 − 24 = 747 plot dots, each strip kernel one dot per level (3, but 2 for 0,
    // 77, 154, 231): 43 × 3 − 4 = 125. Hierarchical draws every level unless hidden.
    let (cached, _) = both(&ks, &m, Mode::Hierarchical, &cache, |i| i);
    assert_eq!(cached.hits.len(), 747 + 125);
}

#[test]
fn a_cache_for_another_mode_gives_the_same_scenes() {
    let (ks, m) = (kernels(1.0), machine("a100"));
    let cache = ModelCache::new(&ks, &m, Mode::Hierarchical);
    for mode in Mode::ALL {
        let (cached, fresh) = both(&ks, &m, mode, &cache, |i| i.with_zoom(Some(ZOOMED)));
        assert_eq!(cached, fresh, "{}", mode.id());
    }
}

#[test]
fn a_cache_for_other_kernels_or_another_machine_is_not_used() {
    let (old, m) = (kernels(1.0), machine("a100"));
    let cache = ModelCache::new(&old, &m, Mode::Hierarchical);
    // A new dataset of the same length: other times, so other shares, sizes and heights.
    let new = kernels(3.0);
    assert!(!cache.is_for(&new, &m));
    let (cached, fresh) = both(&new, &m, Mode::Hierarchical, &cache, |i| i.with_zoom(Some(ZOOMED)));
    assert_eq!(cached, fresh);
    let (stale, _) = both(&old, &m, Mode::Hierarchical, &cache, |i| i.with_zoom(Some(ZOOMED)));
    assert_ne!(cached, stale, "the datasets draw different charts, so a stale cache would show");
    // A filtered view (a shorter slice of the same kernels) and another machine.
    assert!(!cache.is_for(&old[..299], &m));
    let (cached, fresh) = both(&old[..299], &m, Mode::Hierarchical, &cache, |i| i);
    assert_eq!(cached, fresh);
    let h100 = machine("h100");
    assert!(!cache.is_for(&old, &h100));
    let (cached, fresh) = both(&old, &h100, Mode::Hierarchical, &cache, |i| i);
    assert_eq!(cached, fresh);
}
