//! `share::decode` on arbitrary text (seeds: links made by `roofline link`); a link that
//! decodes must encode again and decode to the same view.
#![no_main]
use roofline_engine::share;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(view) = share::decode(&text) {
        if let Ok(link) = share::encode(&view) {
            if link.shortened_names == 0 {
                assert_eq!(share::decode(&link.fragment).as_ref(), Ok(&view), "decode(encode(decode(x))) != decode(x)");
            }
        }
    }
});
