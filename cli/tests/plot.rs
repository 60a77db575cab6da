//! `roofline plot`'s slide frame (issue 45): the footer names the machine at its clock and
//! links the view `roofline link` prints for the same files; `--title` is escaped; `--qr`
//! draws the link's QR code or says why not; `--no-footer` leaves the chart alone.
//! Samples are read in place from shared/samples/.

use std::process::Output;

mod common;
use common::{roofline, NCU_DL, NCU_METRICS};

const SILU: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples/ncu/cs599k__silu_triton_silu-pytorch-ncu-report.txt");

/// A fresh directory for this test's files.
fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("roofline-plot-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `plot` with `args` into a fresh SVG; its text and stderr.
fn plot(test: &str, args: &[&str]) -> (String, String) {
    let dir = temp_dir(test);
    let svg = dir.join("chart.svg");
    let mut all = vec!["plot", "-o", svg.to_str().expect("a UTF-8 temp path")];
    all.extend_from_slice(args);
    let err = ok(&roofline(&all));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    let _ = std::fs::remove_dir_all(&dir);
    (text, err)
}

/// The link `roofline link` prints for `args`.
fn link(args: &[&str]) -> String {
    let mut all = vec!["link"];
    all.extend_from_slice(args);
    let out = roofline(&all);
    ok(&out);
    String::from_utf8_lossy(&out.stdout).trim_end().to_string()
}

#[test]
fn plot_writes_the_machine_and_the_link() {
    let (svg, _) = plot("footer", &[SILU]);
    // The H100 at the clock the report measured: Σ cycles ÷ Σ (cycles ÷ SM frequency) over
    // its 10 kernels = 1,479.33 MHz (engine/tests/slide_export.rs works it out).
    assert!(svg.contains(">NVIDIA H100 SXM5 80GB at 1,479 MHz · cs599k__silu"), "{svg}");
    let url = link(&[SILU]);
    assert!(url.starts_with("https://") && url.contains("#v1."), "{url}");
    // The link (base64url and the address: nothing to escape) is the <a>'s whole href.
    assert!(svg.contains(&format!(r#"<a href="{url}"><text "#)), "no <a href=\"{url}\"> in the SVG");
    // The chart (800 × 500 by default) and a footer of 2 lines: 12 + 2 × 17 + 6 = 52 px.
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="552""#), "{}", &svg[..100]);

    // --base: the link `roofline link --base` makes.
    let (svg, _) = plot("base", &["--base", "https://course.example.edu/roofline/", SILU]);
    let url = link(&["--base", "https://course.example.edu/roofline/", SILU]);
    assert!(url.starts_with("https://course.example.edu/roofline/#v1."), "{url}");
    assert!(svg.contains(&format!(r#"<a href="{url}">"#)));
}

#[test]
fn title_is_escaped_and_the_footer_can_go() {
    let (svg, _) = plot("title", &["--title", r#"SiLU <script>alert("x")</script> & co"#, "--no-footer", SILU]);
    assert!(svg.contains(r#">SiLU &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</text>"#), "{svg}");
    assert!(!svg.contains("<script") && !svg.contains("<a href") && !svg.contains("1,479 MHz"));
    // A 40 px title band over the 500 px chart, no footer.
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="540""#), "{}", &svg[..100]);
}

#[test]
fn qr_code_drawn_or_explained() {
    // The SiLU run's link (955 characters) fits a QR code: white square and dark modules.
    let (svg, err) = plot("qr", &["--qr", SILU]);
    assert!(!err.contains("QR"), "{err}");
    assert!(svg.matches(r##"fill="#000000" stroke="none"/>"##).count() > 500, "too few QR modules");
    // The NERSC run's five files make a link of 3,226 characters: no QR code, and why.
    let files: Vec<String> = NCU_METRICS.iter().map(|m| format!("{NCU_DL}{m}")).collect();
    let mut args = vec!["--qr", "--machine", "v100"];
    args.extend(files.iter().map(String::as_str));
    let (svg, err) = plot("qr-long", &args);
    let chars = link(&args[1..]).chars().count();
    assert_eq!(chars, 3226);
    assert!(err.contains(&format!("roofline: note: link too long for a QR code ({chars} characters); share a shorter link: #url=… or a .roofline.json file")), "{err}");
    assert!(!svg.contains(r##"fill="#000000" stroke="none"/>"##));
    // Five files: the count and the first two names.
    assert!(svg.contains("NVIDIA V100 SXM2 at 1,308 MHz · 5 files: DeepLearningProfiling__"), "{svg}");
}
