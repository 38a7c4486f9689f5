#!/usr/bin/env node
import module from 'node:module';

// Node.js 22.1+ keeps the compiled code of the modules between runs: every later command starts
// faster. Older versions go without.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import('./program.js');
process.exitCode = await runCli(process.argv.slice(2));
