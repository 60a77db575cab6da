// The parser worker's file reader (issue 17), a worker of its own started by worker/src/main.rs
// when the parser starts (src/slices.rs) and kept for every file it reads: it reads one File at a
// time in slices (the first 1 MiB, so the parser starts soon; then 4 MiB) and hands each one over
// (transferred, not copied) while the parser parses the slice before. Reading in the parser's own
// thread does not overlap: a Blob read completes on the thread that asked for it, and that thread
// is busy parsing (measured in docs/PERFORMANCE.md).
//
// Protocol: the parser posts `{file, ahead, seq}` to start a file (a file being read is
// dropped); this worker reads `ahead` slices, posting `{seq, bytes: ArrayBuffer}` for each,
// then one more for every `'next'` the parser posts (one per slice it has taken), so at most
// `ahead` slices wait in memory; `{seq, end: true}` after the last, `{seq, error: message}` if
// the browser cannot read the file. `seq` is the file's: the parser drops what belongs to a
// file it gave up. The parser's own end ends this worker (a nested worker ends with its parent).
const FIRST_SLICE_BYTES = 1024 * 1024;
const SLICE_BYTES = 4 * 1024 * 1024;

let job = null; // { file, seq, start, credit }
let reading = false;

async function pump() {
  if (reading) return;
  reading = true;
  let j = job;
  try {
    while (j && j === job && j.credit > 0 && j.start < j.file.size) {
      j.credit -= 1;
      const end = Math.min(j.start + (j.start === 0 ? FIRST_SLICE_BYTES : SLICE_BYTES), j.file.size);
      const bytes = await j.file.slice(j.start, end).arrayBuffer();
      j.start = end;
      postMessage({ seq: j.seq, bytes }, [bytes]);
      if (j !== job) j = job; // another file was asked for meanwhile
    }
    if (j && j === job && j.start >= j.file.size) {
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
    job = { file: e.data.file, seq: e.data.seq, start: 0, credit: e.data.ahead };
  }
  pump();
};
