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
    let mut idx: Vec<usize> = (0..kernels.len()).filter(|&i| re.as_ref().is_none_or(|r| r.is_match(&kernels[i].name))).collect();
    if let Some(n) = top_n {
        if n < idx.len() {
            let mut by_time = idx.clone();
            by_time.sort_by(|&a, &b| {
                let (ta, tb) = (kernels[a].time_s().unwrap_or(f64::NEG_INFINITY), kernels[b].time_s().unwrap_or(f64::NEG_INFINITY));
                tb.total_cmp(&ta).then(a.cmp(&b))
            });
            by_time.truncate(n);
            by_time.sort();
            idx = by_time;
        }
    }
    Ok(idx)
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
}
