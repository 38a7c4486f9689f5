import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

interface CommonJsModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

interface ModuleConstructor {
  prototype: CommonJsModule;
  wrap(content: string): string;
}

/**
 * Node.js 22.1+ keeps the compiled code of the modules between runs (module.enableCompileCache);
 * 20 does not, so every command compiled the bundle's ~150 kB again (measured: 4-5 ms of CPU of
 * each `platform run`). This does the same for the bundle's CommonJS chunks with V8's code cache,
 * as the v8-compile-cache package did for years: each chunk is compiled with the cache kept for it
 * in `dir`, and a chunk without one (or whose cache V8 refused: another Node.js, other flags) has
 * its cache written when the command exits, with the functions that ran by then compiled too.
 * Chunk file names carry a hash of their content, so a new version of the CLI never reads an old
 * cache. The folder is the user's own (0700): code cache is code. Any failure only means no cache.
 */
export function enableCommonJsCompileCache(dir: string): void {
  const Module = (module as unknown as { Module: ModuleConstructor }).Module;
  const fresh: { script: Script; file: string }[] = [];
  Module.prototype._compile = function compileCached(this: CommonJsModule, content: string, filename: string) {
    const file = join(dir, `${basename(filename)}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      // Not cached yet.
    }
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (script.cachedDataRejected !== false) fresh.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, module.createRequire(filename), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (!fresh.length) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (const { script, file } of fresh) {
        // Written aside and renamed: a command starting meanwhile reads the old cache or the new, never half of one.
        writeFileSync(`${file}.${process.pid}`, script.createCachedData(), { mode: 0o600 });
        renameSync(`${file}.${process.pid}`, file);
      }
    } catch {
      // A read-only or missing home: the next command compiles again.
    }
  });
}

/** `$XDG_CACHE_HOME/platform/v8-<V8 version>`, else `~/.cache/platform/…`: one folder per V8, whose caches differ. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'platform', `v8-${process.versions.v8}`);
}
