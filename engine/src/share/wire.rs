//! The primitives of the binary payload: LEB128 varints, length-prefixed UTF-8, little-endian
//! f64, the 24-bit float counters travel as, and CRC-32. One place so that the writer and the
//! reader cannot disagree, and so that every read is bounds-checked: a reader never indexes
//! past the end and never allocates more than the bytes it has seen justify.

use super::DecodeError;

/// Longest string (kernel name, filter, machine source) a link may carry, bytes.
pub const MAX_STRING_BYTES: usize = 64 * 1024;

/// Writes the primitives into a byte vector.
#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    /// Unsigned LEB128: 7 bits per byte, low bits first, high bit set on all but the last.
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.bytes.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.bytes.push(v as u8);
    }

    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    /// Length (varint) then UTF-8. Callers check [`MAX_STRING_BYTES`] before writing.
    pub fn str(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.bytes.extend_from_slice(s.as_bytes());
    }

    /// An exact f64 as its shortest decimal form `m × 10^e` (the digits Rust prints, which
    /// parse back to the same f64): zigzag varint `m`, then zigzag varint `e`. Machine numbers
    /// are round (828e9 B/s: 3 bytes instead of 8); the worst case, 17 digits, takes 10.
    /// Finite values only (callers check).
    pub fn decimal(&mut self, v: f64) {
        let (m, e) = decimal_parts(v);
        self.varint(zigzag(m));
        self.varint(zigzag(e));
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// `v` = m × 10^e with the fewest digits in `m` (no trailing zeros).
fn decimal_parts(v: f64) -> (i64, i64) {
    if v == 0.0 {
        return (0, 0);
    }
    // `{:e}` is the shortest representation that round-trips: "-1.2005228758169934e13".
    let text = format!("{v:e}");
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let fraction_digits = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let m: i64 = digits.parse().unwrap_or(0);
    (if negative { -m } else { m }, exp - fraction_digits)
}

/// Reads the primitives, refusing anything that runs past the end or is out of range.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

/// The error for data that ends too early.
pub fn damaged(what: &str) -> DecodeError {
    DecodeError(format!("it is damaged ({what}); was it cut or altered?"))
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        if n > self.remaining() {
            return Err(damaged(&format!("the {what} runs past the end of the data")));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    pub fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.take(1, what)?[0])
    }

    /// A varint; at most 10 bytes, no bits beyond 64, no redundant trailing zero byte (the
    /// writer never makes one, so one means the data was altered).
    pub fn varint(&mut self, what: &str) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.u8(what)?;
            let bits = u64::from(b & 0x7f);
            if i == 9 && b > 1 {
                return Err(damaged(&format!("the {what} is too large a number")));
            }
            v |= bits << (7 * i);
            if b & 0x80 == 0 {
                if i > 0 && b == 0 {
                    return Err(damaged(&format!("the {what} is not a canonical number")));
                }
                return Ok(v);
            }
        }
        Err(damaged(&format!("the {what} is too large a number")))
    }

    /// A varint that must be at most `max` (counts, indices): checked before anything is
    /// allocated from it.
    pub fn count(&mut self, max: u64, what: &str) -> Result<usize, DecodeError> {
        let v = self.varint(what)?;
        if v > max {
            return Err(DecodeError(format!("it is damaged or not a view: {v} is too many for the {what} (at most {max})")));
        }
        usize::try_from(v).map_err(|_| damaged(&format!("the {what} does not fit this machine")))
    }

    pub fn str(&mut self, what: &str) -> Result<String, DecodeError> {
        let len = self.count(MAX_STRING_BYTES as u64, &format!("length of the {what}"))?;
        let raw = self.take(len, what)?;
        std::str::from_utf8(raw).map(str::to_owned).map_err(|_| damaged(&format!("the {what} is not UTF-8 text")))
    }

    /// A number written by [`Writer::decimal`]; at most 17 digits, and finite.
    pub fn decimal(&mut self, what: &str) -> Result<f64, DecodeError> {
        let m = unzigzag(self.varint(what)?);
        let e = unzigzag(self.varint(what)?);
        if m.unsigned_abs() >= 100_000_000_000_000_000 || !(-400..=400).contains(&e) {
            return Err(damaged(&format!("the {what} is not a number a link holds")));
        }
        let v: f64 = format!("{m}e{e}").parse().map_err(|_| damaged(&format!("the {what} is not a number")))?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(damaged(&format!("the {what} is not a finite number")))
        }
    }
}

/// The 24-bit float of counter values: an f32 without its 8 low mantissa bits (sign, 8-bit
/// exponent, 15 stored mantissa bits), rounded to nearest. Relative error ≤ 2⁻¹⁶ ≈ 1.5e-5
/// (4.8 significant digits: far below what a log–log chart or a 3-digit table shows) over
/// f32's range; 3 bytes instead of f64's 8, which is what makes 500 kernels fit in a link.
/// Finite values only; magnitudes beyond the largest f24 saturate to it.
pub fn f24_bits(v: f64) -> u32 {
    let bits = (v as f32).to_bits();
    let sign = bits & 0x8000_0000;
    let rounded = if bits & 0x7fff_ffff >= 0x7f80_0000 {
        0x7f80_0000 // f32 overflowed to ∞: saturated below
    } else {
        (bits & 0x7fff_ffff) + 0x80
    };
    let r = (sign | rounded) >> 8;
    if r & 0x7f_8000 == 0x7f_8000 {
        (sign >> 8) | 0x7f_7fff // the largest finite f24, same sign
    } else {
        r
    }
}

/// The value of 24 bits written by [`f24_bits`]; `None` for the NaN/∞ patterns the writer
/// never produces.
pub fn f24_value(r: u32) -> Option<f64> {
    let f = f32::from_bits(r << 8);
    f.is_finite().then_some(f64::from(f))
}

/// What a finite counter value becomes after a trip through a link.
pub fn quantise(v: f64) -> f64 {
    f24_value(f24_bits(v)).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_are_strict() {
        for v in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut w = Writer::default();
            w.varint(v);
            let mut r = Reader::new(&w.bytes);
            assert_eq!(r.varint("n"), Ok(v));
            assert_eq!(r.remaining(), 0);
        }
        assert!(Reader::new(&[0x80, 0x00]).varint("n").is_err(), "overlong");
        assert!(Reader::new(&[0x80]).varint("n").is_err(), "truncated");
        assert!(Reader::new(&[0xff; 11]).varint("n").is_err(), "too long");
        assert!(Reader::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]).varint("n").is_err(), "65 bits");
        assert!(Reader::new(&[5]).count(4, "kernels").is_err());
    }

    #[test]
    fn strings_are_bounded() {
        let mut w = Writer::default();
        w.str("ax_kernel<…>");
        assert_eq!(Reader::new(&w.bytes).str("name").as_deref(), Ok("ax_kernel<…>"));
        assert!(Reader::new(&[10, b'a']).str("name").unwrap_err().0.contains("past the end"));
        assert!(Reader::new(&[2, 0xff, 0xfe]).str("name").unwrap_err().0.contains("UTF-8"));
        assert!(Reader::new(&[0x81, 0x80, 0x08]).str("name").is_err(), "131 073 bytes > 64 KiB");
    }

    #[test]
    fn decimals_are_exact_and_short() {
        for v in [828e9, 12005228758169.934, 6717440000000.0, 0.1, -2.5e-300, 1e308, 0.0, -0.0, 512.0, f64::MIN_POSITIVE, 5e-324, 1.7976931348623157e308] {
            let mut w = Writer::default();
            w.decimal(v);
            let mut r = Reader::new(&w.bytes);
            assert_eq!(r.decimal("x").map(f64::to_bits), Ok(if v == 0.0 { 0.0f64.to_bits() } else { v.to_bits() }), "{v}");
            assert_eq!(r.remaining(), 0);
        }
        let mut w = Writer::default();
        w.decimal(828e9);
        assert_eq!(w.bytes.len(), 3);
        let mut w = Writer::default();
        w.varint(zigzag(1));
        w.varint(zigzag(400));
        assert!(Reader::new(&w.bytes).decimal("x").unwrap_err().0.contains("finite"));
    }

    #[test]
    fn f24_precision_range_and_saturation() {
        for v in [0.010582, 8e9, 5e8, 2.5e11, 1e-30, 123_456_789.0, -3.5, 0.0] {
            let q = quantise(v);
            assert!((q - v).abs() <= v.abs() * 2f64.powi(-16), "{v} → {q}");
            assert_eq!(quantise(q), q, "idempotent");
        }
        assert_eq!(quantise(1.0), 1.0);
        assert_eq!(quantise(1e300), f64::from(f32::from_bits(0x7f7f_ff00)));
        assert_eq!(quantise(-1e300), -f64::from(f32::from_bits(0x7f7f_ff00)));
        assert!(f24_value(0x7f_8000).is_none() && f24_value(0xff_ffff).is_none());
    }
}
