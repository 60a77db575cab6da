//! The dataset as it crosses from the parser worker to the page (`dataset::wire`): the same
//! dataset but for the launch records. An integration test, since it compares machine choices
//! (`choice`, a higher layer than `dataset`: ARCHITECTURE.md "Layers").

use roofline_engine::dataset::wire::DatasetWire;
use roofline_engine::{Dataset, SourceFile};
use std::path::Path;

fn sample(rel: &str) -> SourceFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples").join(rel);
    SourceFile { name: rel.to_string(), bytes: std::fs::read(path).expect("sample") }
}

/// Through serde's JSON (a self-describing format, as the app's JavaScript values are)
/// and back: the same dataset but for the launch records, and the same measured clock.
#[test]
fn a_dataset_survives_the_wire() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/ncu");
    let entries = std::fs::read_dir(&dir).expect("../shared/samples/ncu");
    let mut files: Vec<SourceFile> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("DeepLearningProfiling__"))
        .map(|n| sample(&format!("ncu/{n}")))
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let ds = roofline_engine::load_dataset(&files).expect("the NERSC run loads");
    assert!(!ds.launches.is_empty() && !ds.kernels.is_empty());
    let text = serde_json::to_string(&DatasetWire::from(ds.clone())).expect("serialises");
    let back: Dataset = serde_json::from_str::<DatasetWire>(&text).expect("reads back").into();
    assert!(ds.measured_sm_clock_hz().is_some());
    assert_eq!(back.measured_sm_clock_hz(), ds.measured_sm_clock_hz());
    assert_eq!((back.launches.len(), back.launches_omitted), (0, ds.launches.len() as u64 + ds.launches_omitted));
    let without_records = Dataset { launches: Vec::new(), launches_omitted: back.launches_omitted, launch_clock: back.launch_clock, ..ds.clone() };
    assert_eq!(back, without_records);
    assert_eq!(roofline_engine::choice::profile_machines(&back), roofline_engine::choice::profile_machines(&ds));
}
