// The parser worker's file reader (issue 17), a worker of its own started by worker/src/main.rs
// when the parser starts (src/slices.rs) and kept for every file it reads: it reads one File at a
// time in slices (growing; SLICE_BYTES says why) and hands each one over
// (transferred, not copied) while the parser parses the slice before. Reading in the parser's own
// thread does not overlap: a Blob read completes on the thread that asked for it, and that thread
// is busy parsing (measured in docs/PERFORMANCE.md).
//
// Protocol: the parser posts `{file, ahead, seq, start, end}` to start a file, or the bytes
// `start` to `end` of it (both optional: the whole file; a file being read is dropped); this
// worker reads `ahead` slices, posting `{seq, bytes: ArrayBuffer}` for each,
// then one more for every `'next'` the parser posts (one per slice it has taken), so at most
// `ahead` slices wait in memory; `{seq, end: true}` after the last, `{seq, error: message}` if
// the browser cannot read the file. `seq` is the file's: the parser drops what belongs to a
// file it gave up. The parser's own end ends this worker (a nested worker ends with its parent).
// Slice sizes: 1 MiB first, so the parser starts soon, then 4 MiB, then 16 MiB. Each read has a
// fixed cost (≈ 1 ms here): 50 MB read in 16 MiB slices took 44–50 ms, in 4 MiB slices 59–78 ms
// (headless Chromium, 2 cores; docs/PERFORMANCE.md). At most `ahead` + 1 slices (48 MiB) are
// held outside the parser's memory.
const SLICE_BYTES = [1024 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024];

let job = null; // { file, seq, start, end, slices (read so far), credit }
let reading = false;

async function pump() {
  if (reading) return;
  reading = true;
  let j = job;
  try {
    while (j && j === job && j.credit > 0 && j.start < j.end) {
      j.credit -= 1;
      const end = Math.min(j.start + SLICE_BYTES[Math.min(j.slices, SLICE_BYTES.length - 1)], j.end);
      j.slices += 1;
      const bytes = await j.file.slice(j.start, end).arrayBuffer();
      j.start = end;
      postMessage({ seq: j.seq, bytes }, [bytes]);
      if (j !== job) j = job; // another file was asked for meanwhile
    }
    if (j && j === job && j.start >= j.end) {
      postMessage({ seq: j.seq, end: true });
      job = null;
    }
  } catch (e) {
    if (j) postMessage({ seq: j.seq, error: String((e && e.message) || e) });
    if (j === job) job = null;
  }
  reading = false;
  if (job && job !== j) pump(); // a file asked for during the last read
}

onmessage = (e) => {
  if (e.data === 'next') {
    if (job) job.credit += 1;
  } else {
    const { file, seq, ahead, start = 0, end = file.size } = e.data;
    job = { file, seq, start, end: Math.min(end, file.size), slices: 0, credit: ahead };
  }
  pump();
};
