//! `advisor::html::AdvisorHtml::import` (and detect, and the chunked reader when it streams) on arbitrary text.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| roofline_fuzz::import_target(&roofline_engine::import::advisor::html::AdvisorHtml, data));
