// The parser worker's file reader (issue 17), a worker of its own started by worker/src/main.rs
// (src/slices.rs): it reads one File in 4 MiB slices and hands each one over (transferred, not
// copied) while the parser parses the slice before. Reading in the parser's own thread does not
// overlap: a Blob read completes on the thread that asked for it, and that thread is busy
// parsing (measured in docs/PERFORMANCE.md).
//
// Protocol: the parser posts `{file, ahead}`; this worker reads `ahead` slices, posting
// `{bytes: ArrayBuffer}` for each, then one more for every `'next'` the parser posts (one per
// slice it has taken), so at most `ahead` slices wait in memory; `{end: true}` after the last,
// `{error: message}` if the browser cannot read the file. The parser ends this worker with
// `terminate()` when it is done or gives up.
const SLICE_BYTES = 4 * 1024 * 1024;

let file = null;
let start = 0;
let credit = 0;
let reading = false;

async function pump() {
  if (reading) return;
  reading = true;
  try {
    while (credit > 0 && file && start < file.size) {
      credit -= 1;
      const end = Math.min(start + SLICE_BYTES, file.size);
      const bytes = await file.slice(start, end).arrayBuffer();
      start = end;
      postMessage({ bytes }, [bytes]);
    }
    if (file && start >= file.size) {
      postMessage({ end: true });
      file = null;
    }
  } catch (e) {
    postMessage({ error: String((e && e.message) || e) });
    file = null;
  }
  reading = false;
}

onmessage = (e) => {
  if (e.data === 'next') {
    credit += 1;
  } else {
    file = e.data.file;
    start = 0;
    credit = e.data.ahead;
  }
  pump();
};
