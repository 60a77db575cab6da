//! Raw deflate (RFC 1951) primed with the v1 [`DICTIONARY`].
//!
//! The encoder compresses the dictionary, flushes to a byte boundary and discards that output,
//! then compresses the payload: its back-references may reach into the dictionary. The
//! decoder puts the dictionary in front as one stored (uncompressed) block, inflates, and
//! drops the dictionary from the output. Back-references address inflated bytes, not bits,
//! so the decoder's stored block and the encoder's compressed dictionary are interchangeable,
//! and any deflate encoder that does the same makes links this decoder reads.

use super::dictionary::DICTIONARY;
use super::{DecodeError, MAX_DECODED_BYTES};
use miniz_oxide::deflate::core::{compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus};
use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

/// Compresses `body` (best compression, raw deflate, dictionary-primed).
pub fn deflate(body: &[u8]) -> Vec<u8> {
    // Level 10 ("uber"), negative window bits: raw deflate with a 32 KiB window, no header.
    let mut c = CompressorOxide::new(create_comp_flags_from_zip_params(10, -15, 0));
    let mut scratch = vec![0u8; DICTIONARY.len() * 2 + 1024];
    let mut primed = 0;
    while primed < DICTIONARY.len() {
        let (status, read, _) = compress(&mut c, &DICTIONARY.as_bytes()[primed..], &mut scratch, TDEFLFlush::Sync);
        primed += read;
        if status != TDEFLStatus::Okay || read == 0 {
            break; // cannot happen with a buffer twice the input; the CRC would tell anyway
        }
    }
    let mut out = vec![0u8; body.len() / 2 + 64];
    let (mut in_pos, mut out_pos) = (0, 0);
    loop {
        let (status, read, written) = compress(&mut c, &body[in_pos.min(body.len())..], &mut out[out_pos..], TDEFLFlush::Finish);
        in_pos += read;
        out_pos += written;
        match status {
            TDEFLStatus::Done => break,
            TDEFLStatus::Okay => {
                let grown = out.len() * 2;
                out.resize(grown, 0);
            }
            _ => break,
        }
    }
    out.truncate(out_pos);
    out
}

/// Inflates a stream made by [`deflate`]; returns the output and how many bytes of `input` the
/// deflate stream took (the rest is the uncompressed tail). The output is capped at
/// [`MAX_DECODED_BYTES`] (decompression bombs) and grows by doubling, never allocated at once.
pub fn inflate(input: &[u8]) -> Result<(Vec<u8>, usize), DecodeError> {
    let damaged = || DecodeError("it is damaged (the compressed data is truncated or altered); was it cut or altered?".into());
    let dict = DICTIONARY.as_bytes();
    // One stored block, not final: BFINAL=0 BTYPE=00 (then padding to the byte), LEN, NLEN.
    let len = dict.len() as u16;
    let mut primed = Vec::with_capacity(5 + dict.len() + input.len());
    primed.push(0);
    primed.extend_from_slice(&len.to_le_bytes());
    primed.extend_from_slice(&(!len).to_le_bytes());
    primed.extend_from_slice(dict);
    let prefix = primed.len();
    primed.extend_from_slice(input);

    let cap = MAX_DECODED_BYTES + dict.len();
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut out = vec![0u8; (dict.len() + input.len().saturating_mul(4)).min(cap)];
    let mut state = Box::<DecompressorOxide>::default();
    let (mut in_pos, mut out_pos) = (0usize, 0usize);
    loop {
        let rest = primed.get(in_pos..).ok_or_else(damaged)?;
        let (status, read, written) = decompress(&mut state, rest, &mut out, out_pos, flags);
        in_pos += read;
        out_pos += written;
        match status {
            TINFLStatus::Done => {
                if in_pos < prefix || out_pos < dict.len() {
                    return Err(damaged());
                }
                out.truncate(out_pos);
                out.drain(..dict.len());
                return Ok((out, in_pos.min(primed.len()) - prefix));
            }
            TINFLStatus::HasMoreOutput => {
                if out.len() >= cap {
                    return Err(DecodeError(format!("it expands beyond {} MiB, more than any view this version makes", MAX_DECODED_BYTES / (1024 * 1024))));
                }
                let grown = out.len().saturating_mul(2).min(cap);
                out.resize(grown, 0);
            }
            _ => return Err(damaged()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_a_tail_and_the_dictionary_helps() {
        let body = b"void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<float, 1, 1, long>, 16, Eigen::MakePointer>, ".to_vec();
        let mut link = deflate(&body);
        let plain = miniz_oxide::deflate::compress_to_vec(&body, 10);
        assert!(link.len() * 3 < plain.len(), "{} vs {}", link.len(), plain.len());
        let n = link.len();
        link.extend_from_slice(&[1, 2, 3]);
        assert_eq!(inflate(&link), Ok((body.clone(), n)));
        for size in [0, 1, 100, 5_000, 100_000] {
            let body: Vec<u8> = (0..size).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
            let z = deflate(&body);
            assert_eq!(inflate(&z).map(|(b, used)| (b == body, used)), Ok((true, z.len())), "{size}");
        }
        assert!(inflate(&[]).is_err());
        assert!(inflate(&deflate(b"abc")[..1]).is_err());
    }
}
