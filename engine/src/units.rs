//! Units and scale, decided once for the whole engine.
//!
//! Every stored quantity is in base units: seconds (`_s`), bytes, FLOPs, instructions, Hz.
//! Prefixes are **decimal** (SI): 1 GB/s = 1e9 bytes/s, 1 GFLOP/s = 1e9 FLOP/s. This is what
//! vendors' data sheets, ERT's `roofline.json`, Nsight Compute and the Ding & Williams paper use.
//! NERSC's plotting scripts divide bytes by 1024³; we do not, so a number read from those
//! scripts' plots is 7.4% lower than ours for the same counters. Importers that read binary
//! units (`KiB`, rocprof's `FETCH_SIZE` in KB = 1024 bytes) convert them explicitly.

/// 1e3.
pub const KILO: f64 = 1e3;
/// 1e6.
pub const MEGA: f64 = 1e6;
/// 1e9: one giga (GFLOP/s, GB/s, GIPS).
pub const GIGA: f64 = 1e9;
/// 1e12.
pub const TERA: f64 = 1e12;
/// 1024, for the few formats that count in binary kilobytes.
pub const KIBI: f64 = 1024.0;

/// Bytes of one DRAM/L2/global sector on NVIDIA GPUs since Volta (Ding & Williams, §III).
pub const SECTOR_BYTES: f64 = 32.0;

/// `n` with a comma between thousands, as the page and the pictures write counts: 1755 →
/// "1,755" (a link's length, a clock in MHz).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Formats `value` (in base units) with a decimal prefix for people: `1.23 G`.
pub fn si(value: f64) -> String {
    let a = value.abs();
    let (scaled, prefix) = if a >= 1e15 {
        (value / 1e15, "P")
    } else if a >= TERA {
        (value / TERA, "T")
    } else if a >= GIGA {
        (value / GIGA, "G")
    } else if a >= MEGA {
        (value / MEGA, "M")
    } else if a >= KILO {
        (value / KILO, "k")
    } else if a >= 1.0 || a == 0.0 {
        (value, "")
    } else if a >= 1e-3 {
        (value * 1e3, "m")
    } else if a >= 1e-6 {
        (value * 1e6, "µ")
    } else {
        (value * 1e9, "n")
    };
    let digits = if scaled.abs() >= 100.0 { 0 } else if scaled.abs() >= 10.0 { 1 } else { 2 };
    format!("{scaled:.digits$} {prefix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_prefixes() {
        assert_eq!(si(828e9), "828 G");
        assert_eq!(si(7.8), "7.80 ");
        assert_eq!(si(0.010582), "10.6 m");
        assert_eq!(si(14.0e12), "14.0 T");
    }
}
