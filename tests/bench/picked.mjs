// What a benchmark picks in the file input (load-ab.mjs, load-cpu.mjs, parser-profile.mjs).

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/// The files to pick for `path`: the file itself, or a folder's files in name order (several
/// files picked together).
export function pickedFiles(path) {
  return statSync(path).isDirectory() ? readdirSync(path).sort().map((f) => join(path, f)) : [path];
}
