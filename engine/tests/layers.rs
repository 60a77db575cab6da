//! The engine's layers point one way (ARCHITECTURE.md, "Layers"): domain types at the bottom,
//! the model on them, importers producing them, the dataset joining them, and the consumers
//! (choice, chart, share, report) on top. A module may name its own layer or lower ones,
//! never a higher one. Doc comments may link anywhere; code may not.

use std::path::Path;

/// Each top-level module of `engine/src` and its layer (0 = bottom).
const LAYERS: &[(&str, u8)] = &[
    ("units", 0),
    ("error", 0),
    ("notice", 0),
    ("order", 0),
    ("domain", 0),
    ("model", 1),
    ("import", 2),
    ("limits", 2),
    ("dataset", 3),
    ("selection", 4),
    ("compare", 4),
    ("choice", 4),
    ("provenance", 4),
    ("chart", 5),
    ("share", 5),
    ("report", 5),
    ("collect", 5),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// Every `crate::NAME` a line of code (not a comment) names.
fn named_modules(line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let code = code.split("//").next().unwrap_or(code);
    code.match_indices("crate::")
        .map(|(i, _)| code[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("engine/src is readable").flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_module_names_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let top = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or_default().trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        let own = layer(top).unwrap_or_else(|| panic!("{top} (from {}) has no layer in LAYERS: give it one", rel.display()));
        let text = std::fs::read_to_string(f).expect("readable");
        for (n, line) in text.lines().enumerate() {
            for m in named_modules(line) {
                let Some(l) = layer(&m) else { continue };
                checked += 1;
                if l > own {
                    wrong.push(format!("{}:{}: {top} (layer {own}) names crate::{m} (layer {l})", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} crate paths seen: is the scan reading the sources?");
    assert!(wrong.is_empty(), "layers point the wrong way:\n{}", wrong.join("\n"));
}

#[test]
fn the_scan_sees_code_and_skips_comments() {
    assert_eq!(named_modules("use crate::dataset::Dataset;"), vec!["dataset"]);
    assert_eq!(named_modules("    /// see [`crate::dataset::Dataset`]"), Vec::<String>::new());
    assert_eq!(named_modules("let x = crate::model::a(); // crate::report"), vec!["model"]);
}
