//! Links that survive mail and chat (issue 45, part 4; docs/SHARING.md, "Text layout"): every
//! link ends on a letter or digit (autolinkers leave a trailing `-`, `_`, `.`, … out of the link
//! they make), carries its length so that a cut link says how much of it is missing, is refused
//! as altered when something follows it, and opens when a mail program wrapped it over lines.
//! Links written before the length (the committed fixtures) open as they always did.

use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::share::{self, SharedKernel, View, DEFAULT_BASE_URL, TERMINATOR};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/links/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")).trim().to_string()
}

/// The error text of a link that must not open.
fn refused(link: &str) -> String {
    match share::decode(link) {
        Ok(_) => panic!("opened: {link}"),
        Err(e) => e.to_string(),
    }
}

/// View `i` of a family that varies the kernel count (1–13), the names (lengths and characters)
/// and the values. Values are quantised as the link carries them (`share::quantise`), so a view
/// comes back equal.
fn view(i: usize) -> View {
    // A linear congruential sequence (Knuth's MMIX constants) for values whose low bytes, the
    // link's last characters, vary.
    let mut seed = (i as u64).wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as f64
    };
    let kernels = (0..1 + i % 13)
        .map(|k| {
            let mut c = Counters::default();
            c.set(Counter::TimeS, share::quantise(next() * 1e-12));
            c.set(Counter::DramBytes, share::quantise(next() * 3.7));
            if (i + k) % 3 == 0 {
                c.set(Counter::Fp32Flops, share::quantise(next() * 51.3));
            }
            let name = match (i + k) % 4 {
                0 => format!("k{i}_{k}"),
                1 => format!("void gemm<{}, {k}>(float const*, float*)", i * 13),
                2 => format!("{}_{i}", "Eigen::TensorEvaluator".repeat(1 + k % 3)),
                _ => format!("ampere_sgemm_{}x{}_nn", 32 << (k % 3), 64 + i),
            };
            SharedKernel { name, launches: 1 + (i % 5) as u64, counters: c }
        })
        .collect();
    View { machine_id: "v100".into(), selected: (i % 2 == 0).then_some(0), kernels, ..View::default() }
}

#[test]
fn every_link_ends_on_a_letter_or_digit_and_opens_to_its_view() {
    let mut terminated = 0;
    for i in 0..600 {
        let v = view(i);
        let link = share::encode(&v).unwrap_or_else(|e| panic!("view {i}: {e}")).fragment;
        let last = link.chars().last().unwrap_or(' ');
        assert!(last.is_ascii_alphanumeric(), "view {i}: ends on {last:?}: {link}");
        // `v1.N.…`: N the characters after the second `.`.
        let (n, after) = link.strip_prefix("v1.").and_then(|r| r.split_once('.')).unwrap_or_else(|| panic!("view {i}: {link}"));
        assert_eq!(n.parse::<usize>().ok(), Some(after.len()), "view {i}: {link}");
        if after.len() % 4 == 1 {
            // The terminator after a payload that ends on `-` or `_`.
            assert!(after.ends_with(&format!("-{TERMINATOR}")) || after.ends_with(&format!("_{TERMINATOR}")), "view {i}: {link}");
            terminated += 1;
            // Without its terminator, one character is missing.
            let e = refused(&link[..link.len() - 1]);
            assert!(e.contains(&format!("1 of its {} characters is missing", link.len())), "view {i}: {e}");
        }
        assert_eq!(share::decode(&link).as_ref(), Ok(&v), "view {i}");
        assert_eq!(share::decode(&format!("{DEFAULT_BASE_URL}#{link}")).as_ref(), Ok(&v), "view {i} as an address");
        if terminated > 0 && i >= 200 {
            break;
        }
    }
    // The terminator was written, and read back, at least once (about one link in 128 needs it:
    // a payload of whole 4-character groups, 1 in 4, whose last character is `-` or `_`, 2 in 64).
    assert!(terminated > 0, "no view of the 600 needed the terminator");
}

#[test]
fn a_cut_link_says_how_many_of_its_characters_are_missing() {
    // The course example, re-encoded: its 154-character payload (the v1 fixture's, 157
    // characters with "v1.") after "v1.154.": 161 characters, ending on "Q", no terminator.
    let link = share::encode(&share::decode(&fixture("v1-course.txt")).unwrap()).unwrap().fragment;
    assert_eq!(link.len(), 161);
    assert!(link.starts_with("v1.154.AWIA"), "{link}");
    // A few characters after the length: 10 of 161 left.
    let e = refused(&link[..10]);
    assert!(e.contains("cut") && e.contains("151 of its 161 characters are missing"), "{e}");
    // In the middle: 80 left, 81 missing.
    let e = refused(&link[..80]);
    assert!(e.contains("81 of its 161 characters are missing"), "{e}");
    // One character short.
    let e = refused(&link[..160]);
    assert!(e.contains("1 of its 161 characters is missing"), "{e}");
    assert!(e.contains("Copy the whole link again"), "{e}");
    // Cut inside its length: nothing to count, but cut all the same.
    assert!(refused("v1.15").contains("cut"));
}

#[test]
fn the_nersc_run_cut_in_a_mail_counts_its_whole_address() {
    // The five-file NERSC run (v1 fixture, 2,990 characters): its 2,987-character payload after
    // "v1.2987." is 2,995 characters; behind "https://example.github.io/roofline/#" (36), 3,031.
    let link = share::encode(&share::decode(&fixture("v1-deeplearning-ncu.txt")).unwrap()).unwrap().fragment;
    assert_eq!(link.len(), 2_995);
    assert!(link.starts_with("v1.2987."), "{}", &link[..12]);
    let e = refused(&link[..1_791]);
    assert!(e.contains("1,204 of its 2,995 characters are missing"), "{e}");
    let address = format!("{DEFAULT_BASE_URL}#{link}");
    assert_eq!(address.len(), 3_031);
    let e = refused(&address[..36 + 1_791]);
    assert!(e.contains("1,204 of its 3,031 characters are missing"), "{e}");
}

#[test]
fn a_link_wrapped_over_lines_by_a_mail_program_opens() {
    let link = share::encode(&view(7)).unwrap().fragment;
    let address = format!("{DEFAULT_BASE_URL}#{link}");
    // 76-character lines (RFC 2045's), CRLF; then a chat's indented continuation lines.
    let crlf: Vec<&str> = address.as_bytes().chunks(76).map(|c| std::str::from_utf8(c).unwrap()).collect();
    assert!(crlf.len() > 2, "{}", address.len());
    assert_eq!(share::decode(&crlf.join("\r\n")), Ok(view(7)));
    assert_eq!(share::decode(&format!("  {}\n", crlf.join("\n\t "))), Ok(view(7)));
    // An old link too (the fixture, 157 characters on three lines).
    let old = fixture("v1-course.txt");
    let wrapped = format!("{}\n{}\n{}", &old[..60], &old[60..120], &old[120..]);
    assert_eq!(share::decode(&wrapped), share::decode(&old));
}

#[test]
fn something_after_the_link_is_refused_as_altered() {
    let link = share::encode(&view(3)).unwrap().fragment;
    for junk in ["Thanks", "A", "-", "&utm_source=chat"] {
        let e = refused(&format!("{link}{junk}"));
        assert!(e.contains("altered"), "{junk:?}: {e}");
    }
    // What prose puts around a link (a sentence's full stop, brackets, quotes) is no part of
    // one: the link opens, as does an old link (no length) followed by a full stop.
    let v = share::decode(&link).unwrap();
    for text in [format!("{link}."), format!("({link})."), format!("<{DEFAULT_BASE_URL}#{link}>"), format!("\"{link}\","), format!("[{link}]")] {
        assert_eq!(share::decode(&text).as_ref(), Ok(&v), "{text}");
        assert!(share::looks_like_link(&text), "{text}");
    }
    let old = fixture("v1-course.txt");
    assert!(share::decode(&format!("{old}.")).is_ok(), "an old link and a full stop");
    // Two links run together.
    let e = refused(&format!("{link}{}", share::encode(&view(4)).unwrap().fragment));
    assert!(e.contains("altered") && e.contains("joined"), "{e}");
    // A changed character inside, the length right: altered (the checksum).
    let i = link.len() / 2;
    let changed = format!("{}{}{}", &link[..i], if &link[i..=i] == "A" { "B" } else { "A" }, &link[i + 1..]);
    assert!(refused(&changed).contains("altered"));
}

#[test]
fn links_made_before_the_length_open_as_before() {
    // Every committed fixture (v1 and v2, no length): opens, and its view's link of today opens
    // to the same view, with the same payload after "vN.<length>.".
    for name in ["v1-course.txt", "v1-deeplearning-ncu.txt", "v1-settings-ert-machine.txt", "v2-two-runs.txt"] {
        let old = fixture(name);
        let v = share::decode(&old).unwrap_or_else(|e| panic!("{name}: {e}"));
        let new = share::encode(&v).unwrap().fragment;
        assert_eq!(share::decode(&new).as_ref(), Ok(&v), "{name}");
        let (version, payload) = old.split_once('.').unwrap();
        assert_eq!(new, format!("{version}.{}.{payload}", payload.len()), "{name}: the same payload, with its length");
    }
    // An old link cut is refused as before: no length to count from.
    let old = fixture("v1-course.txt");
    assert!(refused(&old[..100]).contains("damaged"));
}

#[test]
fn pasted_text_is_told_from_profiler_output() {
    let link = share::encode(&view(5)).unwrap().fragment;
    let address = format!("{DEFAULT_BASE_URL}#{link}");
    // A link, whole, cut, wrapped, as an address or alone; a v2 link; an old one.
    for text in [link.as_str(), &address, &address[..50], &format!("  {}\n  {}\n", &address[..70], &address[70..]), &fixture("v2-two-runs.txt"), "v1.", "#v1.15"] {
        assert!(share::looks_like_link(text), "{text:?}");
    }
    // Profiler output and other text.
    for text in [
        "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\"\n\"0\",\"1\",\"gemm\",\"dram__bytes.sum\"",
        "==PROF== Connected to process 4242\nv1.2 of the run",
        "Kernel,Time\nv1.a,3",
        "https://example.github.io/roofline/",
        "https://example.github.io/roofline/#url=https://h.example/a.csv",
        "version 1.2",
        "",
    ] {
        assert!(!share::looks_like_link(text), "{text:?}");
    }
}
