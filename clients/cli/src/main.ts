#!/usr/bin/env node
import module from 'node:module';

// Node.js 22.1+ keeps the compiled code of the modules between runs: every later command starts
// faster. Older versions go without.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// `platform … | head` closes the pipe early: that is the reader's choice, not an error to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});
const { runCli } = await import('./program.js');
process.exitCode = await runCli(process.argv.slice(2));
