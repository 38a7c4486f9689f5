// One bundle of the CLI with its dependencies (commander, the SDK, yaml), so that Node.js reads a
// few files instead of resolving and reading dozens on every `platform` call; each command stays
// its own chunk, loaded only when it runs (src/program.ts).
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: 'dist/src/main.js',
  platform: 'node',
  output: { dir: 'dist/bundle', format: 'esm', entryFileNames: 'platform.js', chunkFileNames: '[name]-[hash].js' },
});
