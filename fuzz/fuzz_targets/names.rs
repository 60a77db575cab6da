//! Kernel name cleaning and demangling (`names::clean`, `names::display_name`) on arbitrary text.
#![no_main]
use roofline_engine::domain::names;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let clean = names::clean(&text);
    let _ = names::display_name(&clean);
    let _ = names::display_name(&text);
    let _ = names::demangle(&text);
});
