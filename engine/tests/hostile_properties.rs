//! Properties of input handling (docs/FUZZING.md): detection and loading never panic on
//! arbitrary bytes, and numbers parse the same with and without thousands separators.
//! The link codec's round trip and its refusal of altered links are in share_properties.rs.

use proptest::prelude::*;
use roofline_engine::import::{self, parse_number};
use roofline_engine::{load_dataset, SourceFile};

/// Bytes that are often near a format: real header fragments glued to arbitrary bytes.
fn near_profile() -> impl Strategy<Value = Vec<u8>> {
    let heads = prop::sample::select(vec![
        "",
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
        "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n",
        "\"Start\",\"Duration\",\"Grid X\",\"Name\"\n",
        "Index,KernelName,gpu-id,DurationNs,FETCH_SIZE\n",
        "kernel,launches,time_s,flops_fp64,bytes_dram\n",
        "Name,Bandwidth,Type\n",
        "{\"empirical\": {\"gbytes\": ",
        "\u{feff}",
        "==PROF== Connected to process 1 (/usr/bin/app)\n",
    ]);
    (heads, prop::collection::vec(any::<u8>(), 0..600)).prop_map(|(h, tail)| {
        let mut b = h.as_bytes().to_vec();
        b.extend(tail);
        b
    })
}

/// `digits` with a `,` every three digits from the right (`1234567` → `1,234,567`).
fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn detection_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let f = SourceFile { name: "x.csv".into(), bytes };
        let _ = import::decode(&f);
        let text = String::from_utf8_lossy(&f.bytes);
        let found = import::detect(&text).map(|i| i.format());
        prop_assert_eq!(found, import::importers().iter().find(|i| i.detect(&text)).map(|i| i.format()));
    }

    #[test]
    fn loading_never_panics_near_a_format(bytes in near_profile(), more in near_profile()) {
        let files = [SourceFile { name: "a.csv".into(), bytes }, SourceFile { name: "b.csv".into(), bytes: more }];
        if let Err(e) = load_dataset(&files) {
            prop_assert!(e.file == "a.csv" || e.file == "b.csv", "errors name the file: {}", e);
            prop_assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn numbers_parse_the_same_with_and_without_thousands_separators(
        negative in any::<bool>(),
        int in 0u64..1_000_000_000_000_000,
        frac in "(\\.[0-9]{1,6})?",
        exp in "([eE][+-]?[0-9]{1,2})?",
        pad in " {0,2}",
    ) {
        let sign = if negative { "-" } else { "" };
        let plain = format!("{pad}{sign}{int}{frac}{exp}{pad}");
        let with_commas = format!("{pad}{sign}{}{frac}{exp}{pad}", grouped(&int.to_string()));
        let expected = format!("{sign}{int}{frac}{exp}").parse::<f64>().ok().filter(|v| v.is_finite());
        prop_assert_eq!(parse_number(&plain), expected);
        prop_assert_eq!(parse_number(&with_commas), expected, "{:?}", with_commas);
    }
}
