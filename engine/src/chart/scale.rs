//! Logarithmic axes: data values ↔ pixels, and decade ticks.

/// A log10 axis mapping `[min, max]` (data, > 0) to `[px0, px1]` (pixels; px1 < px0 for a
/// y axis that grows upwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogScale {
    pub min: f64,
    pub max: f64,
    pub px0: f64,
    pub px1: f64,
}

impl LogScale {
    pub fn to_px(&self, v: f64) -> f64 {
        self.map().to_px(v)
    }

    /// This axis with its logarithms taken once, for mapping many values (a scene maps
    /// tens of thousands of dots; `log10` was an eighth of building one).
    pub fn map(&self) -> LogMap {
        let lmin = self.min.log10();
        LogMap { lmin, span: self.max.log10() - lmin, px0: self.px0, dpx: self.px1 - self.px0 }
    }

    pub fn from_px(&self, px: f64) -> f64 {
        let t = (px - self.px0) / (self.px1 - self.px0);
        10f64.powf(self.min.log10() + t * (self.max.log10() - self.min.log10()))
    }

    /// Powers of ten within the range; if the range spans less than two decades, also 2× and 5×.
    pub fn ticks(&self) -> Vec<f64> {
        let (lo, hi) = (self.min.log10().floor() as i32, self.max.log10().ceil() as i32);
        let few = self.max / self.min < 100.0;
        let mut out = Vec::new();
        for e in lo..=hi {
            let base = 10f64.powi(e);
            for m in if few { &[1.0, 2.0, 5.0][..] } else { &[1.0][..] } {
                let v = base * m;
                if v >= self.min * 0.999_999 && v <= self.max * 1.000_001 {
                    out.push(v);
                }
            }
        }
        out
    }
}

/// A [`LogScale`]'s data → pixel mapping with `log10(min)` and the decades spanned computed
/// once. The same operations in the same order as before caching, so pixels are bit-identical
/// to [`LogScale::to_px`] (scenes are compared byte for byte across builds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogMap {
    lmin: f64,
    span: f64,
    px0: f64,
    dpx: f64,
}

impl LogMap {
    pub fn to_px(&self, v: f64) -> f64 {
        self.log_to_px(v.log10())
    }

    /// [`LogMap::to_px`] of a value whose `log10` is `log` (computed once and kept, as the
    /// hierarchical chart's [`super::ModelCache`] does for its 30,000 dots): the same pixel,
    /// bit for bit.
    pub fn log_to_px(&self, log: f64) -> f64 {
        let t = (log - self.lmin) / self.span;
        self.px0 + t * self.dpx
    }
}

/// How many recent values a [`LogMemo`] remembers: enough for the values one kernel's dots
/// repeat on an axis (instruction chart: warp rate, thread rate, tensor rate).
const MEMO: usize = 4;

/// A [`LogMap`] remembering the last few values it mapped (round robin): a kernel's dots
/// repeat their y (hierarchical: one FLOP/s at every level) or x, and `log10` is much of a
/// dot's cost. The same function of the same bits, so the same pixels.
#[derive(Clone, Debug)]
pub struct LogMemo {
    map: LogMap,
    /// Bits of the values remembered (NaN at first, whose pixel is NaN either way).
    keys: [u64; MEMO],
    px: [f64; MEMO],
    next: usize,
}

impl LogMemo {
    pub fn new(map: LogMap) -> LogMemo {
        LogMemo { map, keys: [f64::NAN.to_bits(); MEMO], px: [f64::NAN; MEMO], next: 0 }
    }

    pub fn to_px(&mut self, v: f64) -> f64 {
        let key = v.to_bits();
        if let Some(i) = self.keys.iter().position(|&k| k == key) {
            return self.px[i];
        }
        let px = self.map.to_px(v);
        self.keys[self.next] = key;
        self.px[self.next] = px;
        self.next = (self.next + 1) % MEMO;
        px
    }
}

/// A data range widened to whole decades around `[lo, hi]` with at least `pad` decades margin.
pub fn decade_range(lo: f64, hi: f64, pad: f64) -> [f64; 2] {
    let (lo, hi) = if lo > 0.0 && hi >= lo { (lo, hi) } else { (1.0, 10.0) };
    let a = (lo.log10() - pad).floor();
    let b = (hi.log10() + pad).ceil();
    [10f64.powf(a), 10f64.powf(b.max(a + 1.0))]
}

/// A tick value for an axis: `0.01`, `1`, `10k`, `1M`.
pub fn tick_label(v: f64) -> String {
    let (scaled, suffix) = if v >= 1e12 {
        (v / 1e12, "T")
    } else if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    if v > 0.0 && v < 1e-3 {
        // 1e-5, 2e-5: tiny intensities would print as "0" with four decimals.
        let e = v.log10().floor();
        let m = v / 10f64.powf(e);
        let m = if (m - m.round()).abs() < 1e-6 { format!("{}", m.round()) } else { format!("{m:.1}") };
        return format!("{m}e{e}");
    }
    let s = format!("{scaled:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_decades_linearly() {
        let s = LogScale { min: 0.01, max: 100.0, px0: 0.0, px1: 400.0 };
        assert!((s.to_px(1.0) - 200.0).abs() < 1e-9);
        assert!((s.from_px(300.0) - 10.0).abs() < 1e-9);
        assert_eq!(s.ticks(), vec![0.01, 0.1, 1.0, 10.0, 100.0]);
    }

    /// The formula before caching, written out: the cached map must give the same bits.
    fn uncached(s: &LogScale, v: f64) -> f64 {
        let t = (v.log10() - s.min.log10()) / (s.max.log10() - s.min.log10());
        s.px0 + t * (s.px1 - s.px0)
    }

    #[test]
    fn cached_map_is_bit_identical() {
        let scales = [LogScale { min: 0.01, max: 100.0, px0: 64.0, px1: 940.0 }, LogScale { min: 1e9, max: 1e14, px0: 549.0, px1: 41.0 }, LogScale { min: 3e-5, max: 7.0, px0: 0.5, px1: 333.3 }];
        for s in scales {
            let m = s.map();
            for i in 0..2000 {
                let v = 10f64.powf(-8.0 + i as f64 * 0.0123) * 1.37;
                assert_eq!(m.to_px(v).to_bits(), uncached(&s, v).to_bits(), "{v}");
            }
            assert_eq!(m.to_px(100.0), s.to_px(100.0));
        }
    }

    #[test]
    fn memo_gives_the_maps_pixels() {
        let s = LogScale { min: 1e9, max: 1e14, px0: 549.0, px1: 41.0 };
        let mut memo = LogMemo::new(s.map());
        // Cycles of three values (one kernel's rates), then new ones: hits and misses alike.
        for i in 0..300 {
            let v = 1e9 * (1.0 + (i / 3 % 7) as f64 * 11.0 + (i % 3) as f64 * 1000.0);
            assert_eq!(memo.to_px(v).to_bits(), s.to_px(v).to_bits(), "{v}");
        }
        assert!(memo.to_px(f64::NAN).is_nan());
    }

    #[test]
    fn labels_and_ranges() {
        assert_eq!(tick_label(0.01), "0.01");
        assert_eq!(tick_label(10_000.0), "10k");
        assert_eq!(tick_label(1e6), "1M");
        assert_eq!(tick_label(1e-5), "1e-5");
        assert_eq!(tick_label(2e-4), "2e-4");
        assert_eq!(decade_range(0.0625, 7.8, 0.3), [0.01, 100.0]);
    }
}
