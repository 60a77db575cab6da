//! `share::decode` of a well-formed `v1.` link (right CRC, valid deflate) around an arbitrary
//! payload (body ‖ tail): the binary view reader itself (seeds: payloads of real links).
#![no_main]
use roofline_engine::share;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (body, tail) = roofline_fuzz::payload_parts(data);
    if let Ok(view) = share::decode(&roofline_fuzz::link_from_payload(body, tail)) {
        if let Ok(link) = share::encode(&view) {
            if link.shortened_names == 0 {
                assert_eq!(share::decode(&link.fragment).as_ref(), Ok(&view), "decode(encode(decode(x))) != decode(x)");
            }
        }
    }
});
