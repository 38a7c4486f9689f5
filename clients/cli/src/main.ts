#!/usr/bin/env node
import module from 'node:module';
import { compileCacheDir, enableCommonJsCompileCache } from './compile-cache.js';

// Node.js 22.1+ keeps the compiled code of the modules between runs: every later command starts
// faster. Node.js 20 gets the same for the bundle's chunks from compile-cache.ts. Node's own
// NODE_DISABLE_COMPILE_CACHE turns either off.
const { enableCompileCache } = module as { enableCompileCache?: () => unknown };
if (enableCompileCache) enableCompileCache();
else if (!process.env.NODE_DISABLE_COMPILE_CACHE) enableCommonJsCompileCache(compileCacheDir());
// `platform … | head` closes the pipe early: that is the reader's choice, not an error to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});
// No top-level await: the bundle is CommonJS (rolldown.config.mjs), which has none.
void import('./program.js')
  .then(({ runCli }) => runCli(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  });
