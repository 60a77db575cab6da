//! Reading a large file on a second thread while the engine parses the chunk before.
//!
//! Why: copying a file from the page cache into the read buffer is ≈ 12 % of the CPU time of
//! `roofline analyze` on a 50 MB Nsight Compute raw page (perf, docs/PERFORMANCE.md); done on
//! its own thread it overlaps with the parse instead of adding to it. Memory stays flat: a
//! few chunk buffers circulate between the two threads, none is allocated per chunk.

use std::io::Read;
use std::sync::mpsc::{channel, sync_channel};

/// How many chunk buffers circulate: one being parsed while the other is read (reading a
/// chunk takes a tenth of parsing it, so the next one is always ready). A third buffer was
/// 256 more page faults for nothing: 2–3 % of the CPU time (docs/PERFORMANCE.md).
const BUFFERS: usize = 2;

/// Why [`for_each_chunk`] stopped.
pub enum Stop<E> {
    /// Reading the file failed.
    Read(std::io::Error),
    /// `on_chunk` failed.
    Chunk(E),
}

/// Reads `file` to its end in chunks of up to `chunk_bytes` on another thread and hands
/// them, in order, to `on_chunk` on this one; the first error stops both.
pub fn for_each_chunk<R, E>(file: R, chunk_bytes: usize, mut on_chunk: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), Stop<E>>
where
    R: Read + Send,
{
    std::thread::scope(|scope| {
        // Filled buffers to this thread (bounded: the reader runs at most BUFFERS chunks
        // ahead), emptied ones back to the reader. Both ends on this side are dropped when
        // this closure returns, before the scope waits for the reader: a reader blocked on
        // either channel then stops instead of waiting forever.
        let (filled_tx, filled_rx) = sync_channel::<std::io::Result<(Vec<u8>, usize)>>(BUFFERS);
        let (empty_tx, empty_rx) = channel::<Vec<u8>>();
        for _ in 0..BUFFERS {
            // Cannot fail: the receiver is alive.
            let _ = empty_tx.send(vec![0; chunk_bytes]);
        }
        scope.spawn(move || read_into(file, &empty_rx, &filled_tx));
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

/// The reading thread: fills the buffers it is given and sends them on, with the byte count;
/// a count of 0 is the end of the file. Stops after the end, an error, or when the parser
/// has gone.
fn read_into<R: Read>(
    mut file: R,
    empty: &std::sync::mpsc::Receiver<Vec<u8>>,
    filled: &std::sync::mpsc::SyncSender<std::io::Result<(Vec<u8>, usize)>>,
) {
    while let Ok(mut buf) = empty.recv() {
        let read = loop {
            match file.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                r => break r,
            }
        };
        let last = !matches!(read, Ok(n) if n > 0);
        if filled.send(read.map(|n| (buf, n))).is_err() || last {
            return;
        }
    }
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
}
