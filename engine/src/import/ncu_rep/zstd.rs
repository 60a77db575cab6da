//! `.ncu-repz`: a report compressed with Zstandard. NVIDIA's reader opens a report whose
//! bytes were compressed with `zstd` when it is named `.ncu-repz` (checked on the samples,
//! docs/FORMATS.md); like everything here it is recognised by content, the zstd frame magic.
//!
//! Decompressed as it arrives with `ruzstd`'s frame decoder, fed one block at a time (at
//! most 128 KiB once decoded), so memory is the compressed carry-over plus the decoder's
//! window (at most [`MAX_WINDOW_BYTES`]), whatever the size of the report and however well
//! it compresses.

use crate::error::ImportError;
use ruzstd::decoding::FrameDecoder;

/// The first bytes of a zstd frame (RFC 8878, 3.1.1).
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// The largest window accepted: zstd's own levels use at most 8 MiB (level 19; 128 MiB only
/// with `--long`). A frame asking for more is refused before anything is allocated.
pub const MAX_WINDOW_BYTES: u64 = 64 << 20;

/// A frame's optional checksum, after its last block (RFC 8878, 3.1.1).
const CHECKSUM_BYTES: usize = 4;

/// The largest block content (RFC 8878, 3.1.1.2.3: `Block_Maximum_Size` is at most 128 KiB).
const MAX_BLOCK_BYTES: usize = 128 << 10;

/// The length of the block at the start of `src`, header included (RFC 8878, 3.1.1.2: a
/// 3-byte little-endian header, bit 0 "last block", bits 1–2 the type, bits 3–23 the size;
/// an RLE block's content is 1 byte whatever its size). `None` with fewer than 3 bytes;
/// `Some(Err)` for a reserved type or a size over the limit.
fn block_bytes(src: &[u8]) -> Option<Result<usize, String>> {
    let [b0, b1, b2] = <[u8; 3]>::try_from(src.get(..3)?).ok()?;
    let header = u32::from(b0) | u32::from(b1) << 8 | u32::from(b2) << 16;
    let size = (header >> 3) as usize;
    Some(match (header >> 1) & 3 {
        3 => Err("a block of the reserved type 3".to_string()),
        _ if size > MAX_BLOCK_BYTES => Err(format!("a block of {size} bytes, over zstd's limit of {MAX_BLOCK_BYTES}")),
        1 => Ok(3 + 1),
        _ => Ok(3 + size),
    })
}

/// The largest frame header (RFC 8878, 3.1.1.1): magic, descriptor, window, dictionary id, size.
const MAX_FRAME_HEADER_BYTES: usize = 18;

/// Skippable frames (RFC 8878, 3.1.2) have magics `0x184D2A50` to `0x184D2A5F`.
fn is_skippable(head: &[u8]) -> bool {
    matches!(head, [b0, 0x2A, 0x4D, 0x18, ..] if b0 & 0xF0 == 0x50)
}

/// The decompressing stage in front of the report's framing.
pub struct Unzstd {
    file: String,
    /// Compressed bytes not consumed yet, from `start` on.
    pending: Vec<u8>,
    start: usize,
    /// Compressed bytes consumed before `pending[start]`.
    consumed: u64,
    frame: Option<FrameDecoder>,
    /// Compressed offset where the current frame starts.
    frame_start: u64,
    /// Whether the current frame's last block has been handed to the decoder.
    last_block_fed: bool,
    /// Bytes of a skippable frame still to pass over.
    skip: u64,
    out: Vec<u8>,
    frames: u64,
}

impl Unzstd {
    pub fn new(file: &str) -> Self {
        Unzstd { file: file.to_string(), pending: Vec::new(), start: 0, consumed: 0, frame: None, frame_start: 0, last_block_fed: false, skip: 0, out: vec![0; 128 << 10], frames: 0 }
    }

    fn error(&self, message: impl std::fmt::Display) -> ImportError {
        ImportError::new(&self.file, None, format!("zstd-compressed report, at compressed byte {}: {message}", self.consumed))
    }

    /// Decompresses the next `chunk` of the file, handing decompressed bytes to `sink`.
    pub fn push(&mut self, chunk: &[u8], sink: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>) -> Result<(), ImportError> {
        if self.start > 0 && self.start >= self.pending.len() / 2 {
            self.pending.drain(..self.start);
            self.start = 0;
        }
        self.pending.extend_from_slice(chunk);
        self.run(sink, false)
    }

    /// Ends the file: decompresses what is left; an error if it ends inside a frame.
    pub fn finish(&mut self, sink: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>) -> Result<(), ImportError> {
        self.run(sink, true)?;
        if self.frame.is_some() || self.skip > 0 || self.start < self.pending.len() {
            return Err(self.error("the file ends inside a zstd frame (cut short?)"));
        }
        if self.frames == 0 {
            return Err(self.error("no zstd frame"));
        }
        Ok(())
    }

    fn advance(&mut self, n: usize) {
        self.start += n;
        self.consumed += n as u64;
    }

    fn run(&mut self, sink: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>, eof: bool) -> Result<(), ImportError> {
        loop {
            let avail = self.pending.len().saturating_sub(self.start);
            if self.skip > 0 {
                let n = self.skip.min(avail as u64) as usize;
                self.advance(n);
                self.skip -= n as u64;
                if self.skip > 0 {
                    return Ok(());
                }
                continue;
            }
            let Some(frame) = self.frame.as_mut() else {
                if avail == 0 || (avail < MAX_FRAME_HEADER_BYTES && !eof) {
                    return Ok(()); // wait for a whole frame header
                }
                let src = self.pending.get(self.start..).unwrap_or(&[]);
                if is_skippable(src) {
                    let Some(len) = src.get(4..8).and_then(|b| <[u8; 4]>::try_from(b).ok()) else {
                        return if eof { Err(self.error("the file ends inside a skippable frame header")) } else { Ok(()) };
                    };
                    self.advance(8);
                    self.skip = u64::from(u32::from_le_bytes(len));
                    continue;
                }
                if !src.starts_with(&MAGIC) {
                    return Err(self.error("expected a zstd frame (magic 28 B5 2F FD)"));
                }
                self.frame_start = self.consumed;
                let mut decoder = FrameDecoder::new();
                decoder.set_max_window_size(MAX_WINDOW_BYTES);
                let mut reader = src;
                decoder.reset(&mut reader).map_err(|e| self.error(format!("unreadable frame header ({e})")))?;
                let header_bytes = src.len() - reader.len();
                self.advance(header_bytes);
                self.frame = Some(decoder);
                self.frames += 1;
                continue;
            };
            // One block at a time (or, after the last block, the frame's 4-byte checksum):
            // the decoder decodes every whole block it is given before handing anything back,
            // and a few KB of highly compressed input can expand to hundreds of MB.
            let rest = self.pending.get(self.start..).unwrap_or(&[]);
            let step = if frame.is_finished() {
                0 // all decoded: only drain
            } else if self.last_block_fed {
                CHECKSUM_BYTES
            } else {
                match block_bytes(rest) {
                    Some(Ok(n)) => n,
                    Some(Err(what)) => return Err(self.error(format!("not decodable ({what})"))),
                    None => usize::MAX,
                }
            };
            if step > avail && !(step == usize::MAX && frame.can_collect() > 0) {
                if eof {
                    return Err(self.error("the file ends inside a zstd block (cut short?)"));
                }
                return Ok(()); // more input needed
            }
            let step = step.min(avail);
            if !self.last_block_fed && step >= 3 {
                self.last_block_fed = rest.first().is_some_and(|b| b & 1 == 1);
            }
            let src = self.pending.get(self.start..self.start + step).unwrap_or(&[]);
            let (read, written) = match frame.decode_from_to(src, &mut self.out) {
                Ok(rw) => rw,
                Err(e) => {
                    // Where the decoder stopped (it counts what it read of the frame), the
                    // same however the input was cut into chunks.
                    let at = self.frame_start + frame.bytes_read_from_source();
                    return Err(ImportError::new(&self.file, None, format!("zstd-compressed report, at compressed byte {at}: not decodable ({e})")));
                }
            };
            let finished = frame.is_finished() && frame.can_collect() == 0;
            self.advance(read.min(step));
            if let Some(bytes) = self.out.get(..written) {
                if !bytes.is_empty() {
                    sink(bytes)?;
                }
            }
            if finished {
                self.frame = None;
                self.last_block_fed = false;
                continue;
            }
            if read == 0 && written == 0 {
                return Err(self.error("the decoder made no progress on a whole block"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zstd frame written by hand (RFC 8878): no content size, 1 MiB window, then `blocks`
    /// RLE blocks of 128 KiB of `b'A'` each (4 bytes of input per block).
    fn rle_frame(blocks: usize) -> Vec<u8> {
        let mut f = MAGIC.to_vec();
        f.extend_from_slice(&[0x00, 10 << 3]); // descriptor; window 2^(10+10)
        for i in 0..blocks {
            let last = u32::from(i + 1 == blocks);
            let header = last | 1 << 1 | (128 << 10) << 3;
            f.extend_from_slice(&header.to_le_bytes()[..3]);
            f.push(b'A');
        }
        f
    }

    #[test]
    fn a_highly_compressed_frame_is_handed_over_block_by_block() {
        // 2000 blocks: 8 KB of input, 250 MiB of output.
        let frame = rle_frame(2000);
        for chunk in [1, 7, frame.len()] {
            let mut z = Unzstd::new("t.ncu-repz");
            let (mut total, mut largest) = (0usize, 0usize);
            let mut sink = |b: &[u8]| {
                total += b.len();
                largest = largest.max(b.len());
                assert!(b.iter().all(|&x| x == b'A'));
                Ok(())
            };
            for part in frame.chunks(chunk) {
                z.push(part, &mut sink).unwrap();
            }
            z.finish(&mut sink).unwrap();
            assert_eq!(total, 2000 * (128 << 10), "chunks of {chunk}");
            assert!(largest <= 128 << 10, "{largest}");
        }
    }

    #[test]
    fn cut_frames_and_foreign_bytes_are_errors() {
        let frame = rle_frame(3);
        let mut z = Unzstd::new("t.ncu-repz");
        z.push(&frame[..frame.len() - 2], &mut |_| Ok(())).unwrap();
        let e = z.finish(&mut |_| Ok(())).unwrap_err();
        assert!(e.message.contains("ends inside"), "{}", e.message);
        let mut z = Unzstd::new("t.ncu-repz");
        let mut bytes = frame.clone();
        bytes.extend_from_slice(b"garbage after the frame, long enough for a header");
        let e = z.push(&bytes, &mut |_| Ok(())).unwrap_err();
        assert!(e.message.contains("expected a zstd frame"), "{}", e.message);
    }
}
