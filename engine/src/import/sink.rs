//! Collecting one launch's counters from metrics that may come as a total or as parts.
//!
//! `dram__bytes.sum` is the total of `dram__bytes_read.sum` + `dram__bytes_write.sum`; a file
//! can have either or both, in any order. Parts add up until a total arrives, and a total is
//! never added to, so both orders give the total and nothing is counted twice.

use crate::domain::counters::{Counter, Counters};

#[derive(Clone, Debug, Default)]
pub struct CounterSink {
    counters: Counters,
    /// Bit `c as usize` is set when counter `c` came from a total metric.
    exact: u64,
}

impl CounterSink {
    /// Records `value` (base units) for `c`: a part (`additive`) or the total.
    pub fn put(&mut self, c: Counter, additive: bool, value: f64) {
        let bit = 1u64 << (c as usize);
        if !additive {
            self.counters.set(c, value);
            self.exact |= bit;
        } else if self.exact & bit == 0 {
            self.counters.add(c, value);
        }
    }

    pub fn get(&self, c: Counter) -> Option<f64> {
        self.counters.get(c)
    }

    pub fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }

    pub fn into_counters(self) -> Counters {
        self.counters
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_win_over_parts_in_any_order() {
        let mut a = CounterSink::default();
        a.put(Counter::DramBytes, true, 10.0);
        a.put(Counter::DramBytes, false, 25.0);
        a.put(Counter::DramBytes, true, 15.0);
        assert_eq!(a.get(Counter::DramBytes), Some(25.0));
        let mut b = CounterSink::default();
        b.put(Counter::DramBytes, true, 10.0);
        b.put(Counter::DramBytes, true, 15.0);
        assert_eq!(b.get(Counter::DramBytes), Some(25.0));
    }
}
