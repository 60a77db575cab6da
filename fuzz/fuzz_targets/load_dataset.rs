//! `load_dataset` on arbitrary bytes holding several files (split at `FILE_SEPARATOR`), the
//! same files pushed in chunks to a `DatasetBuilder`, and the same files with the later half
//! read by another parser (`file_read::FileParser`, as the app's second parser) and added in
//! order: all three must agree.
#![no_main]
use roofline_engine::dataset::file_read::FileParser;
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
    // The files from the middle of the list on read by a second parser; those before pushed
    // in the same chunks as above, so the only difference is who read the later files.
    let from = files.len() / 2;
    let mut b = DatasetBuilder::new();
    let shared = files.iter().enumerate().try_for_each(|(i, f)| {
        let mut read = None;
        if i >= from {
            let mut p = FileParser::new(&f.name);
            for piece in f.bytes.chunks(chunk) {
                p.push(piece);
            }
            read = p.finish();
        }
        if let Some(read) = read {
            return b.add_read(&f.name, &read);
        }
        b.push_chunk(&f.name, &[])?;
        for piece in f.bytes.chunks(chunk) {
            b.push_chunk(&f.name, piece)?;
        }
        b.end_file()
    });
    let shared = shared.and_then(|()| b.finish());
    match (&streamed, &shared) {
        (Ok(s), Ok(r)) => assert_eq!(format!("{s:?}"), format!("{r:?}"), "a file read by the second parser differs"),
        (Err(s), Err(r)) => assert_eq!(s.to_string(), r.to_string(), "a file read by the second parser fails otherwise"),
        _ => panic!("the second parser disagrees: {streamed:?} vs {shared:?}"),
    }
});
