//! The slide frame of exported charts (`chart::caption`, issue 45): the footer's machine and
//! clock for a real Nsight Compute sample, worked out by hand from the file; the SVG's title
//! escaped and its link a real `<a href>` with the whole link; the QR code drawn up to
//! version 25 and left out, with the notice, above it; the file list shortened.

mod samples;

use roofline_engine::chart::caption::{self, Caption, Qr};
use roofline_engine::chart::{self, ChartInput, Shape, Theme};
use roofline_engine::choice::{self, ClockChoice};
use roofline_engine::load_dataset;

const SILU: &str = "ncu/cs599k__silu_triton_silu-pytorch-ncu-report.txt";

/// The sample's machine line: an H100 (sm_90, 132 SMs) at the clock it measured. The report
/// gives each of its 10 kernels "SM Frequency" (GHz) and "Elapsed Cycles"; the measured clock
/// is Σ cycles ÷ Σ (cycles ÷ frequency) = 8,968,554 cycles ÷ 6.0626 ms = 1,479.33 MHz.
#[test]
fn footer_names_the_machine_at_its_measured_clock() {
    let ghz = [1.52, 1.44, 1.48, 1.48, 1.48, 1.48, 1.48, 1.47, 1.48, 1.47];
    let cycles = [1187722.0, 849209.0, 866591.0, 865409.0, 867423.0, 871169.0, 867525.0, 863497.0, 865381.0, 864628.0];
    let by_hand_mhz = cycles.iter().sum::<f64>() / cycles.iter().zip(ghz).map(|(c, g)| c / (g * 1e9)).sum::<f64>() / 1e6;
    assert_eq!(by_hand_mhz.round(), 1479.0);

    let ds = load_dataset(&[samples::sample(SILU)]).expect("the sample loads");
    let picked = choice::choose(&ds, None, ClockChoice::Measured).expect("a choice").expect("a machine");
    assert_eq!(caption::machine_line(&picked.machine), "NVIDIA H100 SXM5 80GB at 1,479 MHz");

    // In the frame, under the chart: machine · file, then the link; all 800 px wide.
    let scene = chart::build(&ChartInput::new(&ds.kernels, &picked.machine, 800.0, 500.0).with_theme(Theme::Light));
    let cap = Caption { machine: caption::machine_line(&picked.machine), files: caption::files_line(&["/data/silu.txt"]), link: "https://example.org/r/#v1.abc".into(), ..Default::default() };
    let framed = caption::frame(&scene, &cap);
    let texts: Vec<&str> = framed.scene.shapes.iter().filter_map(|s| if let Shape::Text { text, .. } = s { Some(text.as_str()) } else { None }).collect();
    assert_eq!(texts[texts.len() - 2..], ["NVIDIA H100 SXM5 80GB at 1,479 MHz · silu.txt", "https://example.org/r/#v1.abc"]);
    // Footer: 12 px pad + 2 lines × 17 px + 6 px = 52 px; no title band.
    assert_eq!((framed.scene.width, framed.scene.height), (800.0, 552.0));
    assert_eq!(framed.qr, Qr::Off);
}

#[test]
fn svg_links_the_whole_link_and_escapes_the_title() {
    let ds = load_dataset(&[samples::sample(SILU)]).expect("the sample loads");
    let m = choice::choose(&ds, None, ClockChoice::Measured).ok().flatten().expect("a machine").machine;
    let scene = chart::build(&ChartInput::new(&ds.kernels, &m, 400.0, 300.0));
    // A link wider than the footer: shown cut with an ellipsis, linked in full.
    let link = format!("https://example.org/roofline/?a=1&b=2#v1.{}", "x".repeat(400));
    let cap = Caption { title: "Kernels <b> & \"friends\"".into(), machine: "M".into(), link: link.clone(), ..Default::default() };
    let framed = caption::frame(&scene, &cap);
    let svg = chart::svg::render_framed(&framed);
    assert!(svg.contains("Kernels &lt;b&gt; &amp; &quot;friends&quot;</text>"), "{svg}");
    assert!(!svg.contains("<b>"));
    let href = format!(r#"<a href="https://example.org/roofline/?a=1&amp;b=2#v1.{}"><text "#, "x".repeat(400));
    let at = svg.find(&href).expect("the link's text is wrapped in <a href> with the whole link");
    let shown = &svg[at + href.len()..];
    let shown = &shown[shown.find('>').expect("tag") + 1..shown.find("</text></a>").expect("the <a> closes after the text")];
    assert!(shown.starts_with("https://example.org/roofline/?a=1&amp;b=2#v1.xxx") && shown.ends_with('…'), "{shown}");
    // 40 px title band + 300 px chart + 52 px footer.
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="392""#), "{}", &svg[..120]);
}

/// A QR code is drawn up to version 25, whose byte capacity at level L is 1,273 bytes; one
/// byte more needs version 26 and the code is left out with the notice.
#[test]
fn qr_code_up_to_version_25_then_a_notice() {
    let m = roofline_engine::model::catalogue::v100();
    let scene = chart::build(&ChartInput::new(&[], &m, 600.0, 400.0));
    let link = |n: usize| format!("https://e.org/#{}", "a".repeat(n - 15));
    let with = |l: String| caption::frame(&scene, &Caption { link: l, qr: true, ..Default::default() });

    let small = with(link(17));
    // 17 bytes: version 1, 21 modules + 2 × 4 quiet = 29 modules × 4 px = 116 px square, on
    // white, at the footer's right edge (600 − 12 − 116 = 472), 6 px under the chart.
    assert_eq!(small.qr, Qr::Drawn { version: 1 });
    assert!(small.scene.shapes.contains(&Shape::Rect { x: 472.0, y: 406.0, w: 116.0, h: 116.0, fill: chart::Color(255, 255, 255) }));
    // The top-left finder pattern's first row: 7 dark modules from the quiet zone's corner.
    assert!(small.scene.shapes.contains(&Shape::Rect { x: 488.0, y: 422.0, w: 28.0, h: 4.0, fill: chart::Color(0, 0, 0) }));
    // Footer: the code (116 px) and 12 px of pad.
    assert_eq!(small.scene.height, 400.0 + 128.0);

    assert_eq!(with(link(1273)).qr, Qr::Drawn { version: 25 });
    let long = with(link(1274));
    assert_eq!(long.qr, Qr::TooLong { chars: 1274 });
    assert_eq!(long.qr.notice().as_deref(), Some("link too long for a QR code (1274 characters); share a shorter link: #url=… or a .roofline.json file"));
    assert!(!long.scene.shapes.iter().any(|s| matches!(s, Shape::Rect { .. })));
    // Not asked for: no code and nothing to say.
    let off = caption::frame(&scene, &Caption { link: link(17), ..Default::default() });
    assert_eq!((off.qr, off.qr.notice()), (Qr::Off, None));
}

#[test]
fn file_lists_are_shortened() {
    assert_eq!(caption::files_line(&["runs/a.csv", "runs/b.csv", "c.csv", "d.csv", "e.csv"]), "5 files: a.csv, b.csv, …");
    assert_eq!(caption::files_line(&["a.csv", "b.csv", "c.csv"]), "3 files: a.csv, b.csv, c.csv");
    // A footer narrower than the line cuts it with an ellipsis, never past the width.
    let line = caption::fit("5 files: a_very_long_kernel_dump_name.csv, b.csv, …", 12.0, 120.0);
    assert!(line.ends_with('…') && chart::labels::text_width(&line, 12.0) <= 120.0, "{line}");
}
