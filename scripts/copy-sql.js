#!/usr/bin/env node
// An app's build step after tsc: copies its SQL function files (src/<feature>/sql/<name>.sql) to
// the same place under dist/src, where the app's migrations entry reads them. Copies made before
// are removed first, so a function file deleted from src is not applied from a stale build.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const src = join(process.cwd(), 'src');
const out = join(process.cwd(), 'dist', 'src');

/** The `sql` folders below `dir`, relative to it. */
function sqlDirs(dir, rel = '') {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const relPath = join(rel, entry.name);
    if (entry.name === 'sql') found.push(relPath);
    else found.push(...sqlDirs(join(dir, entry.name), relPath));
  }
  return found;
}

if (existsSync(out)) for (const dir of sqlDirs(out)) rmSync(join(out, dir), { recursive: true, force: true });
for (const dir of sqlDirs(src)) {
  mkdirSync(join(out, dir), { recursive: true });
  for (const file of readdirSync(join(src, dir))) if (file.endsWith('.sql')) cpSync(join(src, dir, file), join(out, dir, file));
}
