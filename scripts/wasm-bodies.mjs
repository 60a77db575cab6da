// The size of each function body in a wasm module, by function index (imports first, as the
// binary format numbers them: https://webassembly.github.io/spec/core/binary/modules.html).
// V8 compiles a function at its first call, and Liftoff's time grows with the body's bytes, so
// tests/bench/start-trace.mjs weighs what the start compiles with these sizes.

/// Unsigned LEB128 at `at`: [value, next offset].
function leb(bytes, at) {
  let value = 0, shift = 0, b;
  do {
    b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [value, at];
}

/// Map of function index → body size in bytes, for the functions the module defines.
export function bodySizes(bytes) {
  return new Map([...bodyRanges(bytes).bodies].map(([index, [start, end]]) => [index, end - start]));
}

/// Where each defined function's body lies in the module (`bodies`: index → [start, end) byte
/// offsets), and the data section's bytes (`data`, empty where there is none).
export function bodyRanges(bytes) {
  let at = 8, imported = 0;
  const bodies = new Map();
  let data = bytes.subarray(0, 0);
  while (at < bytes.length) {
    const id = bytes[at];
    const [len, start] = leb(bytes, at + 1);
    const end = start + len;
    if (id === 2) {
      // Import section: count the imported functions (kind 0), which come first in the index space.
      let [n, p] = leb(bytes, start);
      for (let i = 0; i < n; i++) {
        let l;
        [l, p] = leb(bytes, p); p += l; // module name
        [l, p] = leb(bytes, p); p += l; // field name
        const kind = bytes[p++];
        if (kind === 0) { imported++; [, p] = leb(bytes, p); }
        else if (kind === 1) { p++; const flags = bytes[p++]; [, p] = leb(bytes, p); if (flags & 1) [, p] = leb(bytes, p); }
        else if (kind === 2) { const flags = bytes[p++]; [, p] = leb(bytes, p); if (flags & 1) [, p] = leb(bytes, p); }
        else if (kind === 3) {
          // A global: its value type (a typed reference, 0x63/0x64, carries a heap type), then
          // its mutability.
          const type = bytes[p++];
          if (type === 0x63 || type === 0x64) [, p] = leb(bytes, p);
          p++;
        }
        else if (kind === 4) { p++; [, p] = leb(bytes, p); }
        else throw new Error(`import kind ${kind} at byte ${p - 1}`);
      }
    } else if (id === 10) {
      let [n, p] = leb(bytes, start);
      for (let i = 0; i < n; i++) {
        const [size, body] = leb(bytes, p);
        bodies.set(imported + i, [body, body + size]);
        p = body + size;
      }
    } else if (id === 11) {
      data = bytes.subarray(start, end);
    }
    at = end;
  }
  return { bodies, data };
}
