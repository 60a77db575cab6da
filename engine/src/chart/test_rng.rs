//! A seeded xorshift generator for the chart tests that compare an index or a fast path with
//! a plain reference on thousands of pseudo-random shapes: deterministic, no dependency.

/// Uniform numbers in [0, 1) from `seed` (non-zero).
pub fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}
