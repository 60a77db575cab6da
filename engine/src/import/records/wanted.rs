//! All-quoted records read sixty-four bytes at a time, with only the fields a reader asked for
//! ([`super::Fields::want`]) found.
//!
//! Why: a raw page's row has one field a metric (475 in the 50 MB bench file, 1,800 in a full
//! `--set full` export) and its importer reads 16–60 of them. Finding every field's range, one
//! closing quote after another ([`super::quoted_record`]), was ≈ 25 wasm instructions a field
//! and 35–39 % of each browser parser's time (docs/PERFORMANCE.md, "2026-12-02"). Here a block
//! of 64 bytes is checked whole from three bit masks (quotes; quotes and commas; line ends),
//! and the quotes are only counted until a wanted field's come.
//!
//! The record is read exactly as `csv-core` reads it, or not at all: the reader returns `None`
//! (and the record goes to the 16-byte reader, then to `csv-core`) unless it is one line of
//! quoted fields with nothing to unescape, ended by an LF or a CRLF. In masks (bit k for byte
//! `base + k`, carried from block to block): with `inside` the prefix XOR of the quotes (set
//! from an opening quote up to, not including, its closing quote), the bytes neither quotes nor
//! inside are *outside*, and the record is simple when every outside byte before its line end
//! is a comma, no two outside bytes touch, no closing quote is followed by a quote (a doubled
//! quote, `""`), and the line end is outside, right after a closing quote. Then the fields are
//! the quote pairs: field `i` lies between quotes `2i` and `2i + 1` of the record. (The prefix
//! XOR of quote masks is simdjson's way of finding strings: Langdale & Lemire, "Parsing
//! gigabytes of JSON per second", VLDB Journal 28, 2019, section 3.1.1.)

/// The columns a reader needs: sorted, each once, with a lookup by column.
#[derive(Clone, Debug, Default)]
pub(super) struct Wanted {
    cols: Vec<usize>,
    member: Vec<bool>,
}

impl Wanted {
    pub(super) fn new(cols: impl IntoIterator<Item = usize>) -> Self {
        // Marked, then listed in order: a row's columns are a few thousand at most, and a sort
        // would add its own code to the parser's wasm (3 KB).
        let mut member = Vec::new();
        for c in cols {
            if member.len() <= c {
                member.resize(c + 1, false);
            }
            if let Some(m) = member.get_mut(c) {
                *m = true;
            }
        }
        let cols = member.iter().enumerate().filter(|(_, &m)| m).map(|(c, _)| c).collect();
        Wanted { cols, member }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.cols.is_empty()
    }

    /// Whether field `i` is one of the wanted.
    pub(super) fn has(&self, i: usize) -> bool {
        self.member.get(i).copied().unwrap_or(false)
    }

    /// How many columns the field ranges must hold: the last wanted one's number and one.
    pub(super) fn width(&self) -> usize {
        self.member.len()
    }
}

/// Finds the wanted fields of the all-quoted record whose opening quote is at `start`: writes
/// field `c`'s range, relative to `start`, as `starts[c]..ends[c]` for every wanted `c` the
/// record has (the slices hold [`Wanted::width`] entries), and returns the record's number of
/// fields and where its line end is (an LF, or the CR of a CRLF, which the caller checks).
/// `None` where the record is not simple (module doc) or its line end is not within whole
/// blocks of 64 bytes of the text.
pub(super) fn wanted_fields(bytes: &[u8], start: usize, wanted: &Wanted, starts: &mut [usize], ends: &mut [usize]) -> Option<(usize, usize)> {
    let mut base = start;
    // Carried from the block before: whether its last byte was inside a field (all ones if so),
    // outside, or a closing quote (bit 0 if so); and the record's quotes before `base`.
    let (mut inside_before, mut outside_before, mut closing_before) = (0u64, 0u64, 0u64);
    let mut quotes = 0usize;
    // The wanted quotes in turn: quote `2c` opens wanted field `c`, `2c + 1` closes it.
    let mut cols = wanted.cols.iter();
    let mut col = cols.next().copied();
    let mut opening = true;
    loop {
        let m = masks64(bytes, base)?;
        let inside = prefix_xor(m.quotes) ^ inside_before;
        let closing = m.quotes & !inside;
        let outside = !(inside | m.quotes);
        // The record's bytes in this block: all, or those before its line end.
        let (limit, end) = match m.line_ends {
            0 => (u64::MAX, None),
            ends_mask => {
                let e = ends_mask.trailing_zeros();
                let after_closing = (closing << 1 | closing_before) >> e & 1 == 1;
                let is_line_end = matches!(bytes.get(base + e as usize), Some(b'\n' | b'\r'));
                if outside >> e & 1 == 0 || !after_closing || !is_line_end {
                    return None;
                }
                ((1u64 << e) - 1, Some(base + e as usize))
            }
        };
        let not_simple = (outside & !m.quotes_or_commas) | (outside & (outside << 1 | outside_before)) | (m.quotes & (closing << 1 | closing_before));
        if not_simple & limit != 0 {
            return None;
        }
        let block_quotes = m.quotes & limit;
        let count = block_quotes.count_ones() as usize;
        while let Some(c) = col {
            let quote = 2 * c + usize::from(!opening);
            if quote >= quotes + count {
                break;
            }
            let at = base + select(block_quotes, quote - quotes) as usize;
            if opening {
                *starts.get_mut(c)? = at + 1 - start;
            } else {
                *ends.get_mut(c)? = at - start;
                col = cols.next().copied();
            }
            opening = !opening;
        }
        quotes += count;
        if let Some(end) = end {
            return Some((quotes / 2, end));
        }
        inside_before = (inside >> 63).wrapping_neg();
        outside_before = outside >> 63;
        closing_before = closing >> 63;
        base += BLOCK;
    }
}

/// Bytes a block of [`masks64`] covers.
const BLOCK: usize = 64;

/// A block's bytes by kind, bit k for byte `base + k`.
struct Masks {
    quotes: u64,
    quotes_or_commas: u64,
    /// The LFs and CRs, and on wasm32 every byte below 14 (tabs, other controls: the reader
    /// then checks the first one and leaves the record to the 16-byte reader if it is not a
    /// line end).
    line_ends: u64,
}

/// The masks of `bytes[at..at + 64]`; `None` where fewer than 64 bytes are left. With wasm
/// SIMD (the site's builds): four 16-byte loads, four compares each, `i8x16.bitmask`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn masks64(bytes: &[u8], at: usize) -> Option<Masks> {
    use super::load16;
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_any_true, v128_or};
    let block = bytes.get(at..at + BLOCK)?;
    let mut m = Masks { quotes: 0, quotes_or_commas: 0, line_ends: 0 };
    let mut lows = [u8x16_splat(0); 4];
    for ((k, b), low) in block.chunks_exact(16).enumerate().zip(&mut lows) {
        let v = load16(b.try_into().ok()?);
        let quote = u8x16_eq(v, u8x16_splat(b'"'));
        let quote_or_comma = v128_or(quote, u8x16_eq(v, u8x16_splat(b',')));
        *low = u8x16_lt(v, u8x16_splat(14));
        let shift = 16 * k as u32;
        m.quotes |= u64::from(u8x16_bitmask(quote)) << shift;
        m.quotes_or_commas |= u64::from(u8x16_bitmask(quote_or_comma)) << shift;
    }
    // Most blocks have no line end: one test for all four, the mask only where there is one.
    let [a, b, c, d] = lows;
    if v128_any_true(v128_or(v128_or(a, b), v128_or(c, d))) {
        let mask = |v: v128, k: u32| u64::from(u8x16_bitmask(v)) << (16 * k);
        m.line_ends = mask(a, 0) | mask(b, 1) | mask(c, 2) | mask(d, 3);
    }
    Some(m)
}

/// [`masks64`] elsewhere (native builds, the CLI): eight words of `u64` arithmetic (SWAR).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn masks64(bytes: &[u8], at: usize) -> Option<Masks> {
    use super::{bytes_equal, gather};
    let block = bytes.get(at..at + BLOCK)?;
    let mut m = Masks { quotes: 0, quotes_or_commas: 0, line_ends: 0 };
    for (k, b) in block.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(b.try_into().ok()?);
        let quote = bytes_equal(w, b'"');
        let shift = 8 * k as u32;
        m.quotes |= u64::from(gather(quote)) << shift;
        m.quotes_or_commas |= u64::from(gather(quote | bytes_equal(w, b','))) << shift;
        m.line_ends |= u64::from(gather(bytes_equal(w, b'\n') | bytes_equal(w, b'\r'))) << shift;
    }
    Some(m)
}

/// Bit k set where an odd number of `x`'s bits 0..=k are set: with `x` a block's quotes, the
/// bytes from each opening quote up to its closing quote.
fn prefix_xor(mut x: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

/// The place of the `j`-th (from 0) set bit of `m`, which has more than `j`: halves counted
/// down to a byte, then its lowest bits cleared.
fn select(mut m: u64, mut j: usize) -> u32 {
    let mut at = 0;
    for width in [32u32, 16, 8] {
        let low = (m & ((1u64 << width) - 1)).count_ones() as usize;
        if j >= low {
            j -= low;
            m >>= width;
            at += width;
        }
    }
    for _ in 0..j {
        m &= m.wrapping_sub(1);
    }
    at + m.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_the_jth_set_bit() {
        let m: u64 = 1 << 1 | 1 << 2 | 1 << 24 | 1 << 60 | 1 << 61 | 1 << 63;
        let places: Vec<u32> = (0..6).map(|j| select(m, j)).collect();
        assert_eq!(places, [1, 2, 24, 60, 61, 63]);
        // Every bit of a full word, and a bit in each byte.
        assert!((0..64).all(|j| select(u64::MAX, j) == j as u32));
        assert!((0..8).all(|j| select(0x0101_0101_0101_0101 << 3, j) == 8 * j as u32 + 3));
    }

    #[test]
    fn prefix_xor_marks_the_bytes_inside_quotes() {
        // `"ab","c"` → quotes at 0, 3, 5, 7: inside are 0..3 and 5..7.
        assert_eq!(prefix_xor(0b1010_1001), 0b0110_0111);
        assert_eq!(prefix_xor(1 << 63), 1 << 63);
    }

    #[test]
    fn masks_mark_quotes_commas_and_line_ends() {
        let mut text = b"\"a,b\",\"c\"\r\n".to_vec();
        text.resize(64, b'x');
        let m = masks64(&text, 0).expect("64 bytes");
        assert_eq!(m.quotes, 0b1_0101_0001);
        assert_eq!(m.quotes_or_commas, 0b1_0111_0101);
        assert_eq!(m.line_ends, 0b110_0000_0000);
        assert!(masks64(&text, 1).is_none(), "63 bytes left");
    }
}
