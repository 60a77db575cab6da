//! Which kernels a view shows: a name filter (a case-insensitive regular expression) and a
//! top-N by time. The table and the chart show the same selection; indices always refer to the
//! dataset's kernels, so a selection survives filtering.

use crate::domain::profile::KernelProfile;
use regex_lite::RegexBuilder;

/// Indices of the kernels whose name matches `pattern` (empty: all) and that are among the
/// `top_n` longest-running of those (kernels without a time rank last), in dataset order.
pub fn visible(kernels: &[KernelProfile], pattern: &str, top_n: Option<usize>) -> Result<Vec<usize>, String> {
    let re = if pattern.trim().is_empty() {
        None
    } else {
        Some(RegexBuilder::new(pattern.trim()).case_insensitive(true).build().map_err(|e| format!("the filter is not a valid regular expression: {e}"))?)
    };
    let idx: Vec<usize> = (0..kernels.len()).filter(|&i| re.as_ref().is_none_or(|r| r.is_match(&kernels[i].name))).collect();
    Ok(longest(kernels, idx, top_n))
}

/// [`visible`] for a filter of plain words and `|` (`gemm`, `volta|eigen`), without a regular
/// expression engine; `None` for any other filter. For these the two agree: regex-lite matches
/// a word anywhere in the name, ignoring ASCII case only, and `a|b` matches either. The link
/// chart (`share::LinkChart`, `first/`) filters with this and leaves other filters to the app:
/// regex-lite was 18 KB gzipped of a shared link's first chart, 100 ms of a phone's
/// (docs/PERFORMANCE.md, "2026-12-07, later").
pub fn visible_words(kernels: &[KernelProfile], pattern: &str, top_n: Option<usize>) -> Option<Vec<usize>> {
    /// The characters with a meaning in regex syntax (regex-syntax's `is_meta_character`): a
    /// filter with any of them but `|` needs the regex engine.
    const SYNTAX: &[char] = &['\\', '.', '+', '*', '?', '(', ')', '[', ']', '{', '}', '^', '$', '#', '&', '-', '~'];
    let pattern = pattern.trim();
    if pattern.contains(SYNTAX) {
        return None;
    }
    let words: Vec<String> = pattern.split('|').map(str::to_ascii_lowercase).collect();
    let idx: Vec<usize> = (0..kernels.len())
        .filter(|&i| {
            pattern.is_empty() || {
                let name = kernels[i].name.to_ascii_lowercase();
                words.iter().any(|w| name.contains(w.as_str()))
            }
        })
        .collect();
    Some(longest(kernels, idx, top_n))
}

/// Of the kernels `idx` (in dataset order), the `top_n` longest-running (kernels without a time
/// rank last), in dataset order.
fn longest(kernels: &[KernelProfile], mut idx: Vec<usize>, top_n: Option<usize>) -> Vec<usize> {
    if let Some(n) = top_n {
        if n < idx.len() {
            let mut by_time = idx.clone();
            crate::order::sort_by(&mut by_time, |&a, &b| {
                let (ta, tb) = (kernels[a].time_s().unwrap_or(f64::NEG_INFINITY), kernels[b].time_s().unwrap_or(f64::NEG_INFINITY));
                tb.total_cmp(&ta).then(a.cmp(&b))
            });
            by_time.truncate(n);
            crate::order::sort_by(&mut by_time, |a, b| a.cmp(b));
            idx = by_time;
        }
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::{Counter, Counters};

    fn k(name: &str, time_s: Option<f64>) -> KernelProfile {
        let mut counters = Counters::default();
        if let Some(t) = time_s {
            counters.set(Counter::TimeS, t);
        }
        KernelProfile { name: name.into(), launches: 1, counters }
    }

    #[test]
    fn filter_then_top_n_keeps_dataset_order() {
        let ks = [k("volta_sgemm", Some(3.0)), k("Eigen::Meta", Some(1.0)), k("volta_hmma", Some(5.0)), k("memset", None), k("VOLTA_x", Some(0.5))];
        assert_eq!(visible(&ks, "", None).unwrap(), vec![0, 1, 2, 3, 4]);
        assert_eq!(visible(&ks, "volta", None).unwrap(), vec![0, 2, 4], "case-insensitive");
        assert_eq!(visible(&ks, "volta", Some(2)).unwrap(), vec![0, 2]);
        assert_eq!(visible(&ks, "", Some(4)).unwrap(), vec![0, 1, 2, 4], "untimed kernels rank last");
        assert!(visible(&ks, "(", None).unwrap_err().contains("not a valid regular expression"));
        assert_eq!(visible(&ks, "^(?:volta|eigen)_", None).unwrap(), vec![0, 2, 4], "regex syntax, anchored");
        // A filter from a link is untrusted: a pattern that compiles to a huge program is refused.
        assert!(visible(&ks, "(a{1000}){1000}", None).is_err());
    }

    #[test]
    fn plain_words_filter_as_the_regex_does_without_it() {
        let ks = [k("volta_sgemm", Some(3.0)), k("Eigen::Meta<float, 2>", Some(1.0)), k("volta_hmma", Some(5.0)), k("memset", None), k("VOLTA_x", Some(0.5)), k("É_kernel", Some(2.0))];
        for (pattern, top_n) in [("", None), ("volta", None), ("VoLtA", Some(2)), ("volta|eigen", None), (" eigen::meta<FLOAT, 2> ", None), ("gemm|", None), ("nothing", None), ("É_k", None), ("é_k", None)] {
            assert_eq!(visible_words(&ks, pattern, top_n), Some(visible(&ks, pattern, top_n).unwrap()), "{pattern:?} {top_n:?}");
        }
        // Worked out by hand: "volta|eigen" keeps 0, 1, 2, 4; the top 2 of those by time are 2 (5 s) and 0 (3 s).
        assert_eq!(visible_words(&ks, "volta|eigen", Some(2)), Some(vec![0, 2]));
        // "é" is not "É": regex-lite ignores ASCII case only, and so does this.
        assert_eq!(visible_words(&ks, "é", None), Some(vec![]));
        for pattern in ["^volta", "volta.*", "a+", "(volta)", "sm[0-9]", "x{2}", "end$", "a\\.b", "v?"] {
            assert_eq!(visible_words(&ks, pattern, None), None, "{pattern} needs the regex engine");
        }
    }
}
