//! `.ncu-repz`: a report compressed with Zstandard. NVIDIA's reader opens a report whose
//! bytes were compressed with `zstd` when it is named `.ncu-repz` (checked on the samples,
//! docs/FORMATS.md); like everything here it is recognised by content, the zstd frame magic.
//!
//! Decompressed as it arrives with `ruzstd`'s frame decoder, fed at most [`STEP_BYTES`] of
//! compressed input at a time, so memory is the compressed carry-over plus the decoder's
//! window (at most [`MAX_WINDOW_BYTES`]), whatever the size of the report.

use crate::error::ImportError;
use ruzstd::decoding::FrameDecoder;

/// The first bytes of a zstd frame (RFC 8878, 3.1.1).
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// The largest window accepted: zstd's own levels use at most 8 MiB (level 19; 128 MiB only
/// with `--long`). A frame asking for more is refused before anything is allocated.
pub const MAX_WINDOW_BYTES: u64 = 64 << 20;

/// Compressed bytes handed to the decoder per call: more than one block (at most 128 KiB
/// plus its header), so every call can make progress, and little enough that the decoded
/// bytes waiting to be drained stay small.
const STEP_BYTES: usize = 256 << 10;

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
    /// Bytes of a skippable frame still to pass over.
    skip: u64,
    out: Vec<u8>,
    frames: u64,
}

impl Unzstd {
    pub fn new(file: &str) -> Self {
        Unzstd { file: file.to_string(), pending: Vec::new(), start: 0, consumed: 0, frame: None, frame_start: 0, skip: 0, out: vec![0; 128 << 10], frames: 0 }
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
            let step = avail.min(STEP_BYTES);
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
            if read > step {
                // The frame's last 4 bytes (its checksum) have not arrived yet.
                return if eof { Err(self.error("the file ends before the frame's checksum")) } else { Ok(()) };
            }
            self.advance(read);
            if let Some(bytes) = self.out.get(..written) {
                if !bytes.is_empty() {
                    sink(bytes)?;
                }
            }
            if finished {
                self.frame = None;
                continue;
            }
            if read == 0 && written == 0 {
                if eof && avail > 0 && avail == step {
                    return Err(self.error("the file ends inside a zstd block (cut short?)"));
                }
                return Ok(()); // more input needed
            }
        }
    }
}
