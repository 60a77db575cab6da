//! `.roofline.json`: the view as a file (docs/SHARING.md), opened by `share::file::from_json`
//! and by the importers when dropped like a profiler file.

use roofline_engine::chart::Zoom;
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue;
use roofline_engine::share::{self, file, SharedKernel, View};
use roofline_engine::{load_dataset, SourceFile};

fn kernel(name: &str, launches: u64, pairs: &[(Counter, f64)]) -> SharedKernel {
    SharedKernel { name: name.into(), launches, counters: Counters::from_pairs(pairs) }
}

fn view() -> View {
    View {
        machine_id: "v100".into(),
        mode: "walls".into(),
        compute: Some("fp64".into()),
        hidden_levels: vec!["l1".into()],
        zoom: Some(Zoom { x: [0.01, 100.0], y: [1e9, 1e13] }),
        filter: "gemm".into(),
        top_n: Some(10),
        selected: Some(1),
        theme: Some("dark".into()),
        word_bytes: 4,
        kernels: vec![
            kernel("ax_kernel (x ← αx, n = 5e8)", 3, &[(Counter::Fp64Flops, 5e8), (Counter::DramBytes, 8e9), (Counter::TimeS, 0.010582)]),
            kernel("gemm", 7, &[(Counter::Cycles, 1.53e9), (Counter::ClockHz, 1.38e9), (Counter::L2Bytes, 1e8 / 3.0)]),
        ],
        ..View::default()
    }
}

#[test]
fn the_file_is_the_view_as_json_with_a_marker_first() {
    let v = view();
    let text = file::to_json(&v);
    assert!(text.starts_with("{\n  \"roofline_view\": \"v1\",\n  \"machine_id\": \"v100\""), "{text}");
    assert!(text.contains("\"bytes_dram\": 8000000000.0"), "counters by stable name");
    assert!(!text.contains("fp32_add"), "absent counters are omitted");
    assert_eq!(file::from_json(&text), Ok(v), "exact: no quantisation in files");
}

#[test]
fn reading_is_lenient_about_fields_strict_about_the_marker() {
    let minimal = r#"{"roofline_view": "v1", "machine_id": "a100", "kernels": [{"name": "k", "launches": 2, "counters": {"time_s": 1.5, "fp8_flops": 3}}], "from_the_future": true}"#;
    let v = file::from_json(minimal).unwrap();
    assert_eq!((v.mode.as_str(), v.word_bytes, v.kernels[0].counters.get(Counter::TimeS)), ("classic", 8, Some(1.5)));
    assert_eq!(v.kernels[0].counters.iter().count(), 1, "unknown counter names are ignored");
    assert!(file::from_json(r#"{"roofline_view": "v2"}"#).unwrap_err().0.contains("\"v2\""));
    assert!(file::from_json(r#"{"machine_id": "a100"}"#).unwrap_err().0.contains("marker"));
    assert!(file::from_json(r#"{"roofline_view": "v1", "kernels": 3}"#).unwrap_err().0.contains("not a valid view"));
    assert!(file::from_json("[1]").is_err());
    assert!(file::from_json("{").is_err());
}

#[test]
fn dropped_on_the_importers_it_gives_back_kernels_and_machine() {
    let v = view();
    let ds = load_dataset(&[SourceFile { name: "big.roofline.json".into(), bytes: file::to_json(&v).into_bytes() }]).unwrap();
    assert_eq!(ds.files[0].format, "roofline-view");
    assert_eq!(ds.machine, Some(catalogue::v100()));
    assert_eq!(ds.kernels.len(), 2);
    for (got, want) in ds.kernels.iter().zip(&v.kernels) {
        assert_eq!((&got.name, got.launches), (&want.name, want.launches));
        assert_eq!(got.counters.iter().count(), want.counters.iter().count());
        for (c, x) in want.counters.iter() {
            let y = got.counters.get(c).unwrap_or(f64::NAN);
            assert!((x - y).abs() <= x.abs() * 1e-15, "{c:?}: {x} vs {y} (rates are not multiplied by launches)");
        }
    }

    let mut custom = v.clone();
    let m = catalogue::a100().at_clock(1e9);
    custom.set_machine(&m);
    let ds = load_dataset(&[SourceFile { name: "c.roofline.json".into(), bytes: file::to_json(&custom).into_bytes() }]).unwrap();
    assert_eq!(ds.machine, Some(m));
}

#[test]
fn a_broken_view_file_names_the_file_and_line() {
    let text = "{\n  \"roofline_view\": \"v1\",\n  \"kernels\": [\n    {\"name\": }\n  ]\n}";
    let e = load_dataset(&[SourceFile { name: "x.roofline.json".into(), bytes: text.as_bytes().to_vec() }]).unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("x.roofline.json", Some(4)));
    let text = "{\"roofline_view\": \"v1\", \"kernels\": [{\"name\": 5}]}";
    let e = load_dataset(&[SourceFile { name: "y.roofline.json".into(), bytes: text.as_bytes().to_vec() }]).unwrap_err();
    assert!(e.to_string().contains("not a valid Roofline Explorer view file"), "{e}");
}

#[test]
fn a_link_and_a_file_of_one_view_agree() {
    let v = view();
    let from_link = share::decode(&share::encode(&v).unwrap().fragment).unwrap();
    let from_file = file::from_json(&file::to_json(&v)).unwrap();
    assert_eq!(from_link.kernels.len(), from_file.kernels.len());
    let (a, b) = (serde_json::to_value(&from_link).unwrap(), serde_json::to_value(&from_file).unwrap());
    for key in ["machine_id", "mode", "compute", "hidden_levels", "zoom", "filter", "top_n", "selected", "theme", "word_bytes"] {
        assert_eq!(a[key], b[key], "{key}");
    }
}
