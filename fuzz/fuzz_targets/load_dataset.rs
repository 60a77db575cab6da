//! `load_dataset` on arbitrary bytes holding several files (split at `FILE_SEPARATOR`), and
//! the same files pushed in chunks to a `DatasetBuilder`: both must agree.
#![no_main]
use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::load_dataset;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let files = roofline_fuzz::split_files(data);
    let whole = load_dataset(&files);
    let chunk = 1 + data.last().map_or(0, |&b| b as usize) % 97;
    let mut b = DatasetBuilder::new();
    let mut pushed = Ok(());
    'files: for f in &files {
        if f.bytes.is_empty() {
            pushed = b.push_chunk(&f.name, &[]);
        }
        for piece in f.bytes.chunks(chunk) {
            pushed = b.push_chunk(&f.name, piece);
            if pushed.is_err() {
                break 'files;
            }
        }
    }
    let streamed = pushed.and_then(|()| b.finish());
    match (&whole, &streamed) {
        (Ok(w), Ok(s)) => {
            assert_eq!(format!("{:?}", w.kernels), format!("{:?}", s.kernels), "kernels differ");
            assert_eq!(w.files, s.files);
        }
        (Err(_), Err(_)) => {}
        _ => panic!("load_dataset and DatasetBuilder disagree: {whole:?} vs {streamed:?}"),
    }
});
