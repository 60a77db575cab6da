//! Reading a large file on a second thread while the engine parses the chunk before.
//!
//! Why: copying a file from the page cache into the read buffer is ≈ 12 % of the CPU time of
//! `roofline analyze` on a 50 MB Nsight Compute raw page (perf, docs/PERFORMANCE.md); done on
//! its own thread it overlaps with the parse instead of adding to it. Memory stays flat: a
//! few chunk buffers circulate between the two threads, none is allocated per chunk.

use std::io::Read;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};

/// How many chunk buffers circulate: one being parsed, one being read, one ready.
const BUFFERS: usize = 3;

/// Why [`for_each_chunk`] stopped.
pub enum Stop<E> {
    /// Reading the file failed.
    Read(std::io::Error),
    /// `on_chunk` failed.
    Chunk(E),
}

/// Filled chunks as the reading thread sends them: the buffer and how many of its bytes are
/// the file's (0: the end of the file), or the read's error.
pub type Filled = std::io::Result<(Vec<u8>, usize)>;

/// Reads `file` to its end in chunks of up to `chunk_bytes` on another thread and hands
/// them, in order, to `on_chunk` on this one; the first error stops both.
pub fn for_each_chunk<R, E>(file: R, chunk_bytes: usize, mut on_chunk: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), Stop<E>>
where
    R: Read + Send,
{
    std::thread::scope(|scope| {
        // Both ends on this side are dropped when this closure returns, before the scope
        // waits for the reader: a reader blocked on either channel then stops instead of
        // waiting forever.
        let (filled_rx, empty_tx) = start(scope, file, chunk_bytes, Ends::Anywhere, BUFFERS);
        for filled in &filled_rx {
            let (buf, n) = filled.map_err(Stop::Read)?;
            if n == 0 {
                return Ok(()); // the end of the file
            }
            on_chunk(buf.get(..n).unwrap_or(&[])).map_err(Stop::Chunk)?;
            // The reader has stopped if this fails; nothing to return the buffer to then.
            let _ = empty_tx.send(buf);
        }
        Ok(())
    })
}

/// Where a chunk may end.
#[derive(Clone, Copy, PartialEq)]
pub enum Ends {
    /// Wherever the buffer is full.
    Anywhere,
    /// After a line end (LF), the bytes after it beginning the next chunk, so that a chunk
    /// starts at a line start, which the parallel parser guesses is a record start
    /// (`parallel.rs`): the last line end followed by a quote, else the last one
    /// ([`cut_at`]). A buffer without a line end is sent whole.
    AtLineEnd,
}

/// Starts the reading thread in `scope` with `buffers` chunk buffers of `chunk_bytes`: filled
/// ones arrive on the receiver (bounded: the reader runs at most `buffers` chunks ahead),
/// and are given back, emptied, on the sender. Dropping either end stops the reader.
pub fn start<'scope, R>(scope: &'scope std::thread::Scope<'scope, '_>, file: R, chunk_bytes: usize, ends: Ends, buffers: usize) -> (Receiver<Filled>, Sender<Vec<u8>>)
where
    R: Read + Send + 'scope,
{
    let (filled_tx, filled_rx) = sync_channel::<Filled>(buffers);
    let (empty_tx, empty_rx) = channel::<Vec<u8>>();
    for _ in 0..buffers {
        // Cannot fail: the receiver is alive.
        let _ = empty_tx.send(vec![0; chunk_bytes.max(1)]);
    }
    scope.spawn(move || read_into(file, ends, &empty_rx, &filled_tx));
    (filled_rx, empty_tx)
}

/// The reading thread: fills the buffers it is given and sends them on, with the byte count;
/// a count of 0 is the end of the file. Stops after the end, an error, or when the parser
/// has gone.
fn read_into<R: Read>(mut file: R, ends: Ends, empty: &Receiver<Vec<u8>>, filled: &SyncSender<Filled>) {
    // Bytes after the last line end of the chunk before (with `Ends::AtLineEnd`).
    let mut tail: Vec<u8> = Vec::new();
    while let Ok(mut buf) = empty.recv() {
        let mut n = tail.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), tail.get(..n)) {
            to.copy_from_slice(from);
        }
        tail.clear();
        let read = fill(&mut file, &mut buf, &mut n);
        if ends == Ends::AtLineEnd && read.is_ok() && n == buf.len() {
            if let Some(cut) = cut_at(buf.get(..n).unwrap_or(&[])) {
                tail.extend_from_slice(buf.get(cut..n).unwrap_or(&[]));
                n = cut;
            }
        }
        let last = n == 0 || read.is_err();
        if filled.send(read.map(|()| (buf, n))).is_err() || last {
            return;
        }
    }
}

/// Where to end a chunk of `bytes` with [`Ends::AtLineEnd`]: after the last line end that a
/// quote follows, else after the last line end; `None` without one. Why the quote: Nsight
/// Compute quotes every field, so its records start with one, while a newline inside a
/// quoted kernel name is seldom followed by one; cutting after the last line end alone
/// would, with such names, keep cutting inside records (every row alike: the same place in
/// each chunk), and every guess would fail. Only a guess: the parse checks it.
fn cut_at(bytes: &[u8]) -> Option<usize> {
    let mut line_ends = memchr::memrchr_iter(b'\n', bytes);
    let last = line_ends.next()?;
    let quoted = std::iter::once(last).chain(line_ends).find(|&i| bytes.get(i + 1) == Some(&b'"'));
    Some(quoted.unwrap_or(last) + 1)
}

/// Reads into `buf` from byte `*n` until it is full or the file ends, advancing `*n`.
fn fill<R: Read>(file: &mut R, buf: &mut [u8], n: &mut usize) -> std::io::Result<()> {
    while let Some(free) = buf.get_mut(*n..).filter(|f| !f.is_empty()) {
        match file.read(free) {
            Ok(0) => break,
            Ok(k) => *n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_arrive_in_order_and_whole() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut got = Vec::new();
        let mut sizes = Vec::new();
        let r: Result<(), Stop<()>> = for_each_chunk(data.as_slice(), 4096, |c| {
            got.extend_from_slice(c);
            sizes.push(c.len());
            Ok(())
        });
        assert!(r.is_ok());
        assert_eq!(got, data);
        assert_eq!(sizes, vec![4096, 4096, 1808]);
    }

    #[test]
    fn the_first_error_stops_reading() {
        let data = vec![7u8; 100_000];
        let mut calls = 0;
        let r = for_each_chunk(data.as_slice(), 1000, |_| {
            calls += 1;
            if calls == 3 {
                Err("bad row")
            } else {
                Ok(())
            }
        });
        assert!(matches!(r, Err(Stop::Chunk("bad row"))));
        assert_eq!(calls, 3);
    }

    #[test]
    fn read_errors_are_reported() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let r = for_each_chunk(Broken, 16, |_| Ok::<(), ()>(()));
        assert!(matches!(r, Err(Stop::Read(e)) if e.to_string() == "disk on fire"));
    }

    #[test]
    fn chunks_at_line_ends_start_at_a_quoted_line() {
        // Lines of 10 bytes, one with a newline not followed by a quote.
        let data = b"\"a\",\"b\"xx\n\"c\",\"d\n\n\"e\"\n\"f\",\"g\"xx\n\"h\"".to_vec();
        let mut chunks: Vec<Vec<u8>> = Vec::new();
        std::thread::scope(|scope| {
            let (filled, empty) = start(scope, data.as_slice(), 16, Ends::AtLineEnd, 2);
            for f in &filled {
                let (buf, n) = f.unwrap_or_else(|e| panic!("{e}"));
                if n == 0 {
                    break;
                }
                chunks.push(buf[..n].to_vec());
                let _ = empty.send(buf);
            }
        });
        assert_eq!(chunks.concat(), data);
        for c in &chunks[..chunks.len() - 1] {
            assert_eq!(c.last(), Some(&b'\n'));
        }
        assert!(chunks[1..].iter().all(|c| c.first() == Some(&b'"')), "{chunks:?}");
    }

    #[test]
    fn cuts_prefer_a_line_end_before_a_quote() {
        assert_eq!(cut_at(b"\"a\"\n\"b\n"), Some(4));
        assert_eq!(cut_at(b"a\nb\nc"), Some(4), "no quote: the last line end");
        assert_eq!(cut_at(b"abc"), None);
    }
}
