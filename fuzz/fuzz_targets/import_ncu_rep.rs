//! The Nsight Compute report reader (`.ncu-rep`, `.ncu-repz`) on arbitrary bytes: read whole
//! and pushed in chunks (chunk size 1–61 bytes from the input), which must give the same
//! launches (or both fail); and the same bytes wrapped as the result entry of a well-formed report (framing,
//! string table), so that mutations reach the result decoder and the metric mapping.
#![no_main]
use roofline_engine::import::binary::BinaryImporter;
use roofline_engine::import::ncu_rep::NsightComputeReport;
use roofline_engine::import::stream::Collect;

/// Launches (as text) or the error, reading `data` in chunks of `chunk` bytes.
fn read(data: &[u8], chunk: usize) -> Result<String, String> {
    let mut parser = NsightComputeReport.reader("fuzz.ncu-rep");
    let mut out = Collect::default();
    for piece in data.chunks(chunk) {
        parser.push(piece, &mut out).map_err(|e| e.to_string())?;
    }
    let warnings = parser.finish(&mut out).map_err(|e| e.to_string())?;
    Ok(format!("{:?} {:?} {:?} {:?}", out.0, warnings, parser.tool(), parser.devices()))
}

fn check(data: &[u8]) {
    let _ = NsightComputeReport.detect(data);
    let chunk = 1 + data.get(1).map_or(0, |&b| b as usize) % 61;
    match (read(data, data.len().max(1)), read(data, chunk)) {
        (Ok(whole), Ok(chunked)) => assert_eq!(whole, chunked, "whole and chunked reads disagree"),
        // Which error comes first may depend on the chunks (a zstd block that does not
        // decode vs. decompressed bytes that are not a report); both must fail.
        (Err(_), Err(_)) => {}
        (whole, chunked) => panic!("whole and chunked reads disagree: {whole:?} vs {chunked:?}"),
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    check(data);
    check(&roofline_fuzz::report_around_result(data));
});
