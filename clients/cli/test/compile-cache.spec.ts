import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';

const work = mkdtempSync(join(tmpdir(), 'cli-compile-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CACHE = pathToFileURL(join(import.meta.dirname, '../src/compile-cache.js')).href;

/** A Node.js process that turns the cache on, then requires two CommonJS chunks (one requiring the other) and prints what they export. */
function runChunks(cacheDir: string): { status: number | null; stdout: string; stderr: string } {
  const program = `
    import { createRequire } from 'node:module';
    import { enableCommonJsCompileCache } from ${JSON.stringify(CACHE)};
    enableCommonJsCompileCache(${JSON.stringify(cacheDir)});
    const chunk = createRequire(${JSON.stringify(join(work, 'x.cjs'))})('./chunk-a.cjs');
    console.log(JSON.stringify({ sum: chunk.sum(20, 22), name: chunk.name, dir: chunk.dir }));`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
}

describe('the compile cache of the bundle (Node.js without module.enableCompileCache)', () => {
  writeFileSync(
    join(work, 'chunk-a.cjs'),
    "const b = require('./chunk-b.cjs');\nexports.sum = (x, y) => b.add(x, y);\nexports.name = __filename;\nexports.dir = __dirname;\n",
  );
  writeFileSync(join(work, 'chunk-b.cjs'), 'exports.add = (x, y) => x + y;\n');
  const cacheDir = join(work, 'cache', 'v8-x');
  const expected = JSON.stringify({ sum: 42, name: join(work, 'chunk-a.cjs'), dir: work });

  it('writes a cache per chunk at exit, in a folder only its owner may read, and runs them as Node.js would', () => {
    const first = runChunks(cacheDir);
    expect([first.status, first.stderr, first.stdout.trim()]).toEqual([0, '', expected]);
    expect(readdirSync(cacheDir).sort()).toEqual(['chunk-a.cjs.cache', 'chunk-b.cjs.cache']);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
  });

  it('compiles from the cache the next time and leaves it as it is', () => {
    const before = statSync(join(cacheDir, 'chunk-a.cjs.cache')).mtimeMs;
    const second = runChunks(cacheDir);
    expect([second.status, second.stdout.trim()]).toEqual([0, expected]);
    expect(statSync(join(cacheDir, 'chunk-a.cjs.cache')).mtimeMs).toBe(before);
  });

  it('compiles afresh over a broken cache and replaces it', () => {
    writeFileSync(join(cacheDir, 'chunk-a.cjs.cache'), 'not a code cache');
    const third = runChunks(cacheDir);
    expect([third.status, third.stdout.trim()]).toEqual([0, expected]);
    expect(readFileSync(join(cacheDir, 'chunk-a.cjs.cache')).toString()).not.toBe('not a code cache');
    expect(readdirSync(cacheDir).sort()).toEqual(['chunk-a.cjs.cache', 'chunk-b.cjs.cache']);
  });

  it('runs without a cache where none can be written', () => {
    writeFileSync(join(work, 'a-file'), '');
    const blocked = runChunks(join(work, 'a-file', 'cache'));
    expect([blocked.status, blocked.stdout.trim()]).toEqual([0, expected]);
  });
});
