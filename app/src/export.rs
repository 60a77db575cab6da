//! Exports: the chart as PNG (2×) and SVG, the kernel table as CSV and JSON, and the view as
//! a `.roofline.json` file. Each is made in the page and downloaded through a Blob, an object
//! URL and a temporary `<a download>`; nothing leaves the browser.
//!
//! The chart exports draw the engine's scene again ([`scene_for_export`]) with the one
//! plotters painter (`chart::paint`): PNG through `canvas::paint_scaled` (plotters-canvas) on
//! an offscreen canvas, SVG through `chart::svg::render_framed` (plotters-svg), as the CLI's
//! `plot`, both in the slide frame of `chart::caption` (the menu's title and QR code, the
//! machine, the files and the page's link). The JSON is `report::analyze`, the CLI's
//! `analyze --json`.

use crate::state::AppState;
use crate::canvas;
use leptos::prelude::*;
use crate::reactive::handler;
use roofline_engine::chart::{self, caption, ChartInput, Mode, Scene, Theme};
use roofline_engine::model::Machine;
use roofline_engine::report::{AnalyzeReport, KernelReport};
use roofline_engine::share::{self, View};
use roofline_engine::KernelProfile;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

/// Backing pixels per CSS pixel of the PNG export.
pub const PNG_SCALE: f64 = 2.0;

/// The on-screen chart's size when there is none to measure (before the first layout).
pub const DEFAULT_SIZE: (f64, f64) = (960.0, 595.0);

/// The scene of these kernels with the chart's defaults (light theme, automatic ranges): what
/// the tests check the SVG writer against.
pub fn scene_of(kernels: &[KernelProfile], machine: &Machine, mode: Mode, selected: Option<usize>, width: f64, height: f64) -> Scene {
    chart::build(&ChartInput::new(kernels, machine, width, height).with_mode(mode).with_selected(selected).with_theme(Theme::Light))
}

/// The scene on screen (chart_view's `current_scene`: filter, zoom, roofs, theme and all), at
/// `width` × `height` CSS pixels.
pub fn scene_for_export(state: AppState, width: f64, height: f64) -> Scene {
    crate::chart_view::current_scene(state, width, height).0
}

/// The on-screen canvas' CSS size, so exports have the layout the user sees.
pub fn on_screen_size() -> (f64, f64) {
    let el = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("roofline-canvas"));
    match el {
        Some(el) if el.client_width() > 0 && el.client_height() > 0 => (el.client_width() as f64, el.client_height() as f64),
        _ => DEFAULT_SIZE,
    }
}

/// The chart as SVG text.
pub fn svg(scene: &Scene) -> String {
    chart::svg::render(scene)
}

/// The Export menu's slide-frame settings (its "Title" field, "Footer" and "QR code" boxes,
/// read when an export starts: plain inputs, no state of their own in the app), used by the PNG
/// and SVG exports and the course page's snippet (`chart::caption`): the title, whether the
/// footer (machine, files, link) is drawn (on unless unticked: a figure for a paper may want
/// the chart alone), and whether the link's QR code is.
pub fn frame_options() -> (String, bool, bool) {
    let doc = web_sys::window().and_then(|w| w.document());
    let input = |id: &str| doc.as_ref().and_then(|d| d.get_element_by_id(id)).and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok());
    (input(TITLE_ID).map(|i| i.value()).unwrap_or_default(), input(FOOTER_ID).is_none_or(|i| i.checked()), input(QR_ID).is_some_and(|i| i.checked()))
}

const TITLE_ID: &str = "export-title";
const FOOTER_ID: &str = "export-footer";
const QR_ID: &str = "export-qr";

/// The page's current address: the live view's link (the address is written on a timer, so
/// it is written first).
pub fn current_link(state: AppState) -> String {
    crate::address::flush(state);
    web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default()
}

/// The chart on screen in its slide frame: the title, the machine and clock, the files and
/// the link (and its QR code when asked for).
pub fn framed_for_export(state: AppState) -> caption::Framed {
    let (w, h) = on_screen_size();
    let scene = scene_for_export(state, w, h);
    let (title, footer, qr) = frame_options();
    let caption = if footer {
        caption::Caption { title, machine: state.machine.with_untracked(caption::machine_line), files: state.source.get_untracked(), link: current_link(state), qr }
    } else {
        caption::Caption { title, ..Default::default() }
    };
    caption::frame(&scene, &caption)
}

/// The CSV header: base units in brackets (decimal, as everywhere in the engine).
pub const CSV_HEADER: &str = "kernel,launches,time [s],FLOPs [FLOP],FP64 FLOPs [FLOP],FP32 FLOPs [FLOP],FP16 FLOPs [FLOP],tensor FLOPs [FLOP],L1 bytes [B],L2 bytes [B],DRAM bytes [B],intensity DRAM [FLOP/byte],performance [FLOP/s],bound by,attained fraction of roof [1],headroom [x],potential saving [s]";

/// A number in full precision; empty when not measured (never 0).
fn num(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite()).map_or(String::new(), |v| v.to_string())
}

fn csv_row(r: &KernelReport) -> [String; 17] {
    let g = r.guidance.as_ref();
    let intensity = match (r.flops.total, r.bytes.dram) {
        (Some(f), Some(b)) if b > 0.0 => Some(f / b),
        _ => None,
    };
    [
        r.name.clone(),
        r.launches.to_string(),
        num(r.time_s),
        num(r.flops.total),
        num(r.flops.fp64),
        num(r.flops.fp32),
        num(r.flops.fp16),
        num(r.flops.tensor),
        num(r.bytes.l1),
        num(r.bytes.l2),
        num(r.bytes.dram),
        num(intensity),
        num(r.flops_per_s),
        g.map_or(String::new(), |g| g.binding.name.clone()),
        num(g.map(|g| g.attained_fraction)),
        num(g.and_then(|g| g.headroom)),
        num(g.and_then(|g| g.potential_saving_s)),
    ]
}

/// The kernel table as CSV, written by the `csv` crate (fields quoted where they hold a comma,
/// a quote or a line break; lines end with CRLF, RFC 4180): the header, then one row per kernel
/// of the report (all kernels, as the JSON; the table's filter does not apply).
pub fn kernels_csv(report: &AnalyzeReport) -> String {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
    // Writing to a Vec cannot fail, and every field is text: the bytes are UTF-8.
    let _ = w.write_record(CSV_HEADER.split(','));
    for r in &report.kernels {
        let _ = w.write_record(csv_row(r));
    }
    w.into_inner().ok().and_then(|bytes| String::from_utf8(bytes).ok()).unwrap_or_default()
}

/// The kernel table as JSON: `roofline analyze --json`'s report, pretty-printed by the
/// browser (`json::to_pretty_json`: the CLI's layout and values; numbers in JavaScript's form).
pub fn kernels_json(report: &AnalyzeReport) -> Result<String, JsValue> {
    crate::json::to_pretty_json(report)
}

/// The view as a `.roofline.json` file (`share::file`'s document: the marker, then the view),
/// pretty-printed by the browser, with a final line end as the CLI writes it.
pub fn view_json(view: &View) -> Result<String, JsValue> {
    crate::json::to_pretty_json(&share::file::document(view)).map(|text| text + "\n")
}


/// The view on screen, as the address carries it (the app's one definition of it).
pub fn current_view(state: AppState) -> View {
    state.view_untracked()
}

/// Downloads `bytes` as a file named `name`.
pub fn download_bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts)?;
    download_blob(name, &blob)
}

/// Downloads a Blob through an object URL and a temporary `<a download>`; the URL is revoked
/// a little later (some browsers read it after `click` returns).
pub fn download_blob(name: &str, blob: &web_sys::Blob) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let document = window.document().ok_or_else(|| JsValue::from_str("no document"))?;
    let body = document.body().ok_or_else(|| JsValue::from_str("no body"))?;
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    body.append_child(&a)?;
    a.click();
    body.remove_child(&a)?;
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    window.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000)?;
    Ok(())
}

/// Paints the scene at [`PNG_SCALE`] on an offscreen canvas and downloads it as PNG.
pub fn download_png(scene: &Scene, name: &str) -> Result<(), JsValue> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no document"))?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
    canvas::paint_scaled(&canvas, scene, PNG_SCALE)?;
    let name = name.to_string();
    let done = Closure::once_into_js(move |blob: JsValue| {
        let result = match blob.dyn_into::<web_sys::Blob>() {
            Ok(blob) => download_blob(&name, &blob),
            Err(_) => Err(JsValue::from_str("the browser made no PNG")),
        };
        if let Err(e) = result {
            leptos::logging::error!("PNG export: {e:?}");
        }
    });
    canvas.to_blob(done.unchecked_ref())
}

/// What the menu exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    Png,
    Svg,
    Csv,
    Json,
    View,
}

impl Export {
    pub const ALL: [Export; 5] = [Export::Png, Export::Svg, Export::Csv, Export::Json, Export::View];

    /// Button text.
    pub fn label(self) -> &'static str {
        match self {
            Export::Png => "Chart PNG (2×)",
            Export::Svg => "Chart SVG",
            Export::Csv => "Table CSV",
            Export::Json => "Table JSON",
            Export::View => "View file (.roofline.json)",
        }
    }

    /// Downloaded file name.
    pub fn file_name(self) -> String {
        match self {
            Export::Png => "roofline.png".into(),
            Export::Svg => "roofline.svg".into(),
            Export::Csv => "kernels.csv".into(),
            Export::Json => "kernels.json".into(),
            Export::View => format!("view{}", share::file::EXTENSION),
        }
    }

    /// Downloads the export; what the user should know about it (a QR code left out).
    fn run(self, state: AppState) -> Result<Option<String>, JsValue> {
        let name = self.file_name();
        match self {
            Export::Png | Export::Svg => {
                let framed = framed_for_export(state);
                if self == Export::Png {
                    download_png(&framed.scene, &name)?;
                } else {
                    download_bytes(&name, "image/svg+xml", chart::svg::render_framed(&framed).as_bytes())?;
                }
                return Ok(framed.qr.notice());
            }
            Export::Csv => download_bytes(&name, "text/csv", state.report.with_untracked(kernels_csv).as_bytes()),
            Export::Json => download_bytes(&name, "application/json", state.report.with_untracked(kernels_json)?.as_bytes()),
            Export::View => download_bytes(&name, "application/json", view_json(&current_view(state))?.as_bytes()),
        }?;
        Ok(None)
    }
}

#[component]
pub fn ExportMenu(state: AppState) -> impl IntoView {
    // A QR code left out: said here, and the menu stays open to say it.
    let note = RwSignal::new(String::new());
    view! {
        <div class="export-menu">
            <label class="export-field">"Title " <input type="text" id=TITLE_ID placeholder="optional, above the chart" /></label>
            <label class="export-field"><input type="checkbox" id=FOOTER_ID checked />" Footer: machine, files, link"</label>
            <label class="export-field"><input type="checkbox" id=QR_ID />" QR code of the link"</label>
            {Export::ALL
                .into_iter()
                .map(|e| {
                    view! {
                        <button
                            type="button"
                            data-export=e.file_name()
                            on:click=handler(move |_: web_sys::MouseEvent| {
                                match e.run(state) {
                                    Ok(Some(why)) => return note.set(why),
                                    Ok(None) => note.set(String::new()),
                                    Err(err) => state.error.set(Some(format!("{}: the export failed ({err:?})", e.file_name()))),
                                }
                                crate::popover::close("menu-export");
                            })
                        >
                            {e.label()}
                        </button>
                    }
                })
                .collect_view()}
            <p class="export-note" role="status">{move || note.get()}</p>
            <crate::course_snippet::CourseSnippet state=state />
        </div>
    }
}
