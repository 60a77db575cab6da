//! The link chart: a page opened from a shared link (`#v1.…`) draws the link's chart into the
//! static first paint (index.html's `#first-paint`) with this module, before the app's much
//! larger wasm has arrived; the app then replaces the first paint in the task that draws its
//! own chart, the same pixels at the same place (`tests/e2e/link-chart.test.mjs`).
//!
//! It holds the engine's link codec, machine catalogue, model and chart, and the canvas painter
//! the app uses (`roofline_web`), and no view layer: what the first chart needs, and nothing
//! that waits for the user (docs/PERFORMANCE.md, "the link chart"). `public/first-paint.js`
//! loads it for a page with a link, asks for the app's wasm once this module's has arrived, and
//! lets the app mount once this has drawn (or given up).
//!
//! Anything the app would show above the chart that this module does not (an alert: a link
//! that cannot be opened, a machine this build does not know, a filter that is not a regular
//! expression) leaves the first paint as it is: the app says why when it mounts. So do a
//! comparison of runs and a filter with regular-expression syntax beyond `|`: this module has
//! no regex engine (`selection::visible_words`).

use roofline_engine::chart::{Mode, Theme};
use roofline_engine::notice::capitalise;
use roofline_engine::share::{self, LinkChart};
use roofline_web::{canvas, layout, perf};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlCanvasElement};

fn main() {
    perf::mark("roofline:link-chart-start");
    if draw().is_some() {
        perf::measure("roofline:link-chart", "roofline:link-chart-start");
    }
}

/// Draws the address's chart into the first paint; `None` where it leaves that to the app.
fn draw() -> Option<()> {
    let window = web_sys::window()?;
    let hash = window.location().hash().ok()?;
    let chart = chart_of(hash.strip_prefix('#').unwrap_or(&hash))?;
    let document = window.document()?;
    let skeleton = document.query_selector("#first-paint .chart-wrap").ok()??;
    let system_dark = window.match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|q| q.matches());
    // The page's colours follow the chart's theme, as the app sets them (app/src/theme.rs).
    let theme = if chart.effective_theme(system_dark) == Theme::Dark { "dark" } else { "light" };
    document.document_element()?.set_attribute("data-theme", theme).ok()?;
    toolbar(&document, &chart);
    // New elements in place of the skeleton's chart box, not the box moved down by the sentence
    // (a layout shift).
    let canvas: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    canvas.set_class_name("fp-link-chart");
    let wrap = document.create_element("div").ok()?;
    wrap.set_class_name("chart-wrap");
    wrap.append_child(&canvas).ok()?;
    match &chart.note {
        Some((sentence, warnings)) => {
            let note = machine_note(&document, sentence, warnings)?;
            skeleton.replace_with_with_node_2(&note, &wrap).ok()?;
        }
        None => skeleton.replace_with_with_node_1(&wrap).ok()?,
    }
    let (width, height) = layout::chart_size(&wrap);
    paint(&canvas, &chart, width, height, system_dark)?;
    // The skeleton's menus, hidden until now (app/first-paint.css), name the link's machine.
    document.document_element()?.class_list().add_1("link-drawn").ok()
}

// The steps below are functions of their own (`inline(never)`), not inlined into `main`: V8
// compiles a wasm function whole at its first call, on the page's main thread, and with
// everything inlined `main` was one 95 KB function, compiled before its first line ran (64 ms of
// a throttled phone's link chart in three such functions; docs/PERFORMANCE.md, "2026-12-07, later").

/// The link's view decoded and made ready to draw; `None` where the app is to say why not.
#[inline(never)]
fn chart_of(link: &str) -> Option<LinkChart> {
    LinkChart::of(&decoded(link)?)
}

#[inline(never)]
fn decoded(link: &str) -> Option<share::View> {
    share::decode(link).ok()
}

/// The chart's scene at the canvas's size, painted.
#[inline(never)]
fn paint(canvas: &HtmlCanvasElement, chart: &LinkChart, width: f64, height: f64, system_dark: bool) -> Option<()> {
    canvas::paint(canvas, &scene(chart, width, height, system_dark)).ok()
}

#[inline(never)]
fn scene(chart: &LinkChart, width: f64, height: f64, system_dark: bool) -> roofline_engine::chart::Scene {
    chart.scene(width, height, system_dark)
}

/// The skeleton's toolbar says what the app's will: the link's mode and machine (the app's
/// `ModeTabs` and machine menu, app/src/view_controls.rs and toolbar.rs).
fn toolbar(document: &Document, chart: &LinkChart) {
    if let Ok(tabs) = document.query_selector_all("#first-paint .mode-tab") {
        let on = Mode::ALL.iter().position(|&m| m == chart.mode);
        for i in 0..tabs.length() {
            if let Some(tab) = tabs.item(i).and_then(|t| t.dyn_into::<Element>().ok()) {
                let _ = tab.class_list().toggle_with_force("fp-on", on == Some(i as usize));
            }
        }
    }
    if let Ok(Some(label)) = document.query_selector("#first-paint .machine-menu .menu-label") {
        label.set_text_content(Some(chart.machine.short_name()));
    }
}

/// The sentence above the chart and its warnings, as the app's `MachineNote` writes them
/// (app/src/app.rs): text nodes, never HTML.
fn machine_note(document: &Document, sentence: &str, warnings: &[String]) -> Option<Element> {
    let note = document.create_element("div").ok()?;
    note.set_class_name("machine-note");
    let p = document.create_element("p").ok()?;
    p.set_class_name("machine-sentence");
    p.set_text_content(Some(sentence));
    note.append_child(&p).ok()?;
    for w in warnings {
        let p = document.create_element("p").ok()?;
        p.set_class_name("machine-warning");
        p.set_text_content(Some(&capitalise(w)));
        note.append_child(&p).ok()?;
    }
    Some(note)
}
