//! `pattern` (the kernel filter's regular expressions) against regex-lite, the crate it
//! replaced in the web app: the same patterns must be accepted and refused, and accepted
//! ones must match the same names.

use proptest::prelude::*;
use roofline_engine::pattern::Pattern;

/// Both engines on one pattern: accepted by both or refused by both, and the same answer on
/// every text.
fn agree(pattern: &str, case_insensitive: bool, texts: &[&str]) -> Result<(), String> {
    let theirs = regex_lite::RegexBuilder::new(pattern).case_insensitive(case_insensitive).build();
    let ours = Pattern::new(pattern, case_insensitive);
    match (&theirs, &ours) {
        (Ok(r), Ok(p)) => {
            for t in texts {
                if r.is_match(t) != p.is_match(t) {
                    return Err(format!("{pattern:?} on {t:?}: regex-lite {}, ours {}", r.is_match(t), p.is_match(t)));
                }
            }
            Ok(())
        }
        (Err(_), Err(_)) => Ok(()),
        _ => Err(format!("{pattern:?}: regex-lite {:?}, ours {:?}", theirs.err().map(|e| e.to_string()), ours.err())),
    }
}

const NAMES: &[&str] = &[
    "",
    "volta_sgemm_128x64_nn",
    "volta_h884gemm_64x64_ldg8_nn",
    "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<…>, int>(…)",
    "ax_kernel (x ← αx, n = 5e8)",
    "implicit_convolve_sgemm",
    "cudnn::detail::wgrad_alg0_engine<float, 128, 6, 8, 3, 3, 5, false, 512>",
    "memset (0)",
    "a\nb\r\nc",
    "_Z10add_kernelPfS_S_i",
    "ABC abc 123 _x-y.z",
];

#[test]
fn filters_people_type() {
    let patterns = [
        "gemm", "GEMM", "volta|eigen", "^volta_.*nn$", "sgemm$", "h884|hmma", r"\bconv", "conv\\b", "Eigen::", "<float, 128", r"\(0\)",
        "^$", "", "ax_kernel \\(x", "[0-9]+x[0-9]+", r"\d{3}", r"\w+::\w+", "(?i)EIGEN", "^(?:volta|turing)_", "ldg[48]", "[^a-z_]",
        "wgrad_alg[0-9]_engine<float,\\s*128", "(a|b|c)+", "x{2,}", "5e8\\)$", "α", "[α-ω]", "(?m)^b$", "(?s)a.b", "(?R)(?m)^c$",
        r"\x41", r"\u{3b1}", "[[:upper:]]{3}", "[[:^alpha:]]", r"\<add", r"kernel\>", r"\b{start}add", r"\b{end-half}", r"\B_", "(?x) volta _ sgemm # comment",
        "a{0}", "(?:)", "(|)", "a**", "a*?b", "a{1,3}?", "^*", "\\A\\z", "[-a]", "[a-]", "[]a]", "[^]a]", "[a-c-e]", "[\\[]", "[--a]",
    ];
    for p in patterns {
        for ci in [false, true] {
            if let Err(e) = agree(p, ci, NAMES) {
                panic!("{e}");
            }
        }
    }
}

#[test]
fn refusals() {
    let refused = [
        "(", ")", "a)", "(?:", "[", "[a", "[]", "[^]", "[z-a]", "[a-\\d]", "[[a]]", "[[:foo:]]", "[a&&b]", "[a--b]", "[a~~b]", "[\\b]", "*a",
        "a|*", "{", "a{", "a{2", "a{,3}", "a{2,1}", "x{a}", "\\", "\\1", "\\p{L}", "\\pL", "\\Q", "\\e", "\\cA", "\\Z", "\\G", "(?z)", "(?)",
        "(?-)", "(?i-i)", "(?--i)", "(?'n'a)", "(?P<>a)", "(?P<1a>b)", "(?P<n>a)(?P<n>b)", "(?=a)", "(?<!a)", "\\x{}", "\\x{D800}", "\\xZ1",
        "\\b{foo}", "\\b{start", "(a{1000}){1000}",
    ];
    for p in refused {
        assert!(regex_lite::Regex::new(p).is_err(), "regex-lite refuses {p:?}");
        assert!(Pattern::new(p, false).is_err(), "we refuse {p:?}");
    }
}

/// Patterns assembled from the pieces of the syntax, in any order (most are invalid; the
/// valid ones exercise odd combinations), on texts of the same letters.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a", "b", "A", "_", " ", "\n", ".", "*", "+", "?", "|", "(", ")", "[", "]", "^", "$", "-", "{", "}", ",", "1", "2", "\\", "d", "w", "s",
        "b", "B", "x", "4", "?:", ":", "<", ">", "#", "z", "(?x)", "(?m)", "(?s)", "(?i)", "(?R)", "\\x41", "\\u{62}", "(?P<n>", "\\<", "\\b{start}", "\\A", "\\z", "[[:alpha:]]", "\\b", "\\d", "\\W", "{1,2}", "{2}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn same_as_regex_lite(pieces in prop::collection::vec(piece(), 0..10), texts in prop::collection::vec("[abAB_ 1\\n-]{0,8}", 8)) {
        let pattern: String = pieces.concat();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        prop_assert_eq!(agree(&pattern, false, &texts), Ok(()));
    }
}
