//! Format detection (`import::detect`, every importer's `detect`) and decoding on arbitrary bytes.
#![no_main]
use roofline_engine::import;
use roofline_engine::SourceFile;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let file = SourceFile { name: "fuzz.csv".into(), bytes: data.to_vec() };
    let _ = import::decode(&file);
    let text = String::from_utf8_lossy(data);
    let _ = import::detect(&text);
    for imp in import::importers() {
        let _ = imp.detect(&text);
    }
});
