// One bundle of the CLI with its dependencies (commander, the SDK, yaml), so that Node.js reads a
// few files instead of resolving and reading dozens on every `platform` call; each command stays
// its own chunk, loaded only when it runs (src/program.ts).
//
// The bundle is CommonJS (the sources stay ES modules): Node.js 20 loads a CommonJS program
// without starting its ES module loader, which took ~10-20 ms of every call (measured: `platform
// run --help` 64 → 45 ms p50, node -e 0 26 ms). A package.json of its own in dist/bundle says so,
// since the package is `"type": "module"`.
import { defineConfig } from 'rolldown';

/** dist/bundle/package.json: the bundle's files are CommonJS whatever the package's type. */
const commonJsMarker = {
  name: 'commonjs-marker',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'package.json', source: `${JSON.stringify({ type: 'commonjs' })}\n` });
  },
};

export default defineConfig({
  input: 'dist/src/main.js',
  platform: 'node',
  plugins: [commonJsMarker],
  // Chunk names carry a hash: without cleaning, every build would leave the previous ones behind (and in the package).
  output: { dir: 'dist/bundle', format: 'cjs', cleanDir: true, entryFileNames: 'platform.js', chunkFileNames: '[name]-[hash].js' },
});
