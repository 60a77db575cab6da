//! `roofline link`: the link the app would make (docs/SHARING.md), its notices and exit codes.
//! Samples are read in place from shared/samples/; large inputs are generated in a temp dir.

use roofline_engine::model::catalogue;
use roofline_engine::share::{self, View};
use roofline_engine::{load_dataset, SourceFile};
use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{roofline, NCU_DL, NCU_METRICS};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn dl_files() -> Vec<String> {
    NCU_METRICS.iter().map(|m| format!("{NCU_DL}{m}")).collect()
}

/// A fresh directory for this test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("roofline-link-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A tidy CSV of `n` kernels named by `name(i)`, each with time, FLOPs, DRAM and L2 bytes.
fn tidy_csv(dir: &std::path::Path, n: usize, name: impl Fn(usize) -> String) -> String {
    let mut text = String::from("kernel,launches,time_s,flops_fp32,bytes_dram,bytes_l2\n");
    for i in 0..n {
        let x = (i as f64 + 1.0) * 1.37;
        text += &format!("\"{}\",{},{},{},{},{}\n", name(i), 1 + i % 7, 1e-5 * x, 3.1e8 * x * x, 7.7e7 * x, 2.3e8 * x.sqrt());
    }
    let path = dir.join("kernels.csv");
    std::fs::write(&path, text).expect("write the CSV");
    path.to_string_lossy().into_owned()
}

/// Deterministic pseudo-random hex, so that names do not compress away.
fn hex(i: usize, len: usize) -> String {
    let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from_digit((x % 16) as u32, 16).unwrap_or('0')
        })
        .collect()
}

#[test]
fn prints_the_link_the_app_would_make() {
    let files = dl_files();
    let args: Vec<&str> = ["link"].into_iter().chain(files.iter().map(String::as_str)).collect();
    let out = roofline(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let url = stdout(&out);
    assert!(url.ends_with('\n') && url.lines().count() == 1);
    let url = url.trim_end();
    assert!(url.starts_with(&format!("{}#v1.", share::DEFAULT_BASE_URL)), "{url}");
    assert!(stderr(&out).contains("uses v100"), "no machine given: the app's default, said so");

    // Exactly what the engine makes of the same files (the app calls the same function).
    let sources: Vec<SourceFile> = files.iter().map(|p| SourceFile { name: p.clone(), bytes: std::fs::read(p).unwrap_or_default() }).collect();
    let ds = load_dataset(&sources).expect("the samples load");
    // The files name no GPU: V100, as the app does, at the SM clock the run measured.
    let measured = ds.measured_sm_clock_hz().expect("the NERSC run measures its clock");
    let v100 = catalogue::v100().at_clock(measured);
    let expected = share::encode(&View::new(&v100, &ds.kernels)).expect("fits");
    assert_eq!(url, expected.url(share::DEFAULT_BASE_URL));

    let view = share::decode(url).expect("the link opens");
    assert_eq!((view.kernels.len(), view.mode.as_str(), view.machine_id.as_str()), (49, "classic", "v100"));
    assert_eq!(view.custom_machine.and_then(|m| m.clock_hz), Some(measured), "a V100 at its measured clock travels in full");
}

#[test]
fn base_mode_and_machine_options() {
    let files = dl_files();
    let mut args = vec!["link", "--base", "https://roofline.example.org/app/", "--mode", "hierarchical", "--machine", "v100", "--clock", "base"];
    args.extend(files.iter().map(String::as_str));
    let out = roofline(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    // The one warning: the NERSC deep-learning set collected FFMA and the tensor pipe only
    // (issue 43), so the other FLOP instructions are named.
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("FLOPs were collected in part, without DADD, DMUL, DFMA, FADD, FMUL, HADD, HMUL, HFMA: kernels"), "{err}");
    let url = stdout(&out);
    assert!(url.starts_with("https://roofline.example.org/app/#v1."), "{url}");
    // And the note of a link past 2,000 characters (share::LONG_LINK_CHARS), with its length
    // (49 kernels with their names and the V100 at its base clock in full: 3,184 today) and
    // the two ways to a short one.
    let chars = url.trim().len();
    assert!((3_000..3_400).contains(&chars), "{chars}");
    let long = format!("roofline: note: this link is long ({},{:03} characters)", chars / 1000, chars % 1000);
    assert!(err.lines().nth(1).is_some_and(|l| l.starts_with(&long)), "{err}");
    assert!(err.contains("#url=") && err.contains("-o VIEW.roofline.json writes it"), "{err}");
    let view = share::decode(url.trim()).expect("the link opens");
    assert_eq!(view.mode, "hierarchical");
    let m = view.custom_machine.expect("a catalogue machine at another clock travels in full");
    assert_eq!((m.id.as_str(), m.clock_hz), ("v100", Some(1312e6)));

    let out = roofline(&["link", "--mode", "sideways", &files[0]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--mode is one of"));
    let out = roofline(&["link"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_input_exits_1_naming_the_file_and_line() {
    let dir = temp_dir("bad");
    let path = dir.join("bad.csv");
    std::fs::write(&path, "kernel,time_s,bytes_dram\nk1,0.5,1e9\nk2,abc,1e9\n").expect("write");
    let out = roofline(&["link", &path.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("bad.csv") && err.contains('3'), "{err}");
    assert!(stdout(&out).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_short_link_has_no_length_note() {
    let dir = temp_dir("short");
    // Two kernels with short names: a link of a few hundred characters, nothing to say of it.
    let csv = tidy_csv(&dir, 2, |i| format!("k{i}"));
    let out = roofline(&["link", "--machine", "a100", &csv]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).trim().len() < share::LONG_LINK_CHARS, "{}", stdout(&out));
    assert!(!stderr(&out).contains("this link is long"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn long_names_are_shortened_with_a_notice() {
    let dir = temp_dir("shorten");
    // 150 kernels with 700-character template names of random hex: ~100 kB of names in full.
    let csv = tidy_csv(&dir, 150, |i| format!("void app::kernel_{}<{}>(float*)", hex(i, 8), hex(i + 1000, 680)));
    let out = roofline(&["link", "--machine", "a100", &csv]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("kernel names were shortened") && err.contains("of 150"), "{err}");
    let view = share::decode(stdout(&out).trim()).expect("the link opens");
    assert_eq!(view.kernels.len(), 150);
    assert!(view.kernels.iter().any(|k| k.name.ends_with("<…>")), "collapsed template arguments");
    assert!(stdout(&out).trim().len() <= share::MAX_LINK_CHARS + share::DEFAULT_BASE_URL.len() + 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_view_too_large_for_a_link_is_written_as_a_file() {
    let dir = temp_dir("large");
    // 3 000 kernels whose random names cannot be shortened: no link can hold them.
    let csv = tidy_csv(&dir, 3_000, |i| format!("k_{}", hex(i, 40)));
    let out = roofline(&["link", "--machine", "a100", &csv]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("too large for a link") && err.contains("-o VIEW.roofline.json"), "{err}");
    assert!(stdout(&out).is_empty());

    let file = dir.join("big.roofline.json");
    let file = file.to_string_lossy();
    let out = roofline(&["link", "--machine", "a100", "--mode", "walls", &csv, "-o", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("too large for a link") && stderr(&out).contains("big.roofline.json"));
    assert!(stdout(&out).is_empty());
    let text = std::fs::read_to_string(file.as_ref()).expect("the view file was written");
    let view = share::file::from_json(&text).expect("a view file");
    assert_eq!((view.kernels.len(), view.mode.as_str(), view.machine_id.as_str()), (3_000, "walls", "a100"));

    // The file opens like any profiler file.
    let out = roofline(&["analyze", "--json", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["files"][0]["format"], "roofline-view");
    assert_eq!(report["kernels"].as_array().map(Vec::len), Some(3_000));
    assert_eq!(report["machine"]["id"], "a100");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_documents_link() {
    let out = roofline(&["--help"]);
    let help = stdout(&out);
    assert!(help.contains("roofline link [OPTIONS] FILE...") && help.contains("--base URL"), "{help}");
}
