import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Served by the gateway at /console (apps/gateway/src/console): hashed assets under /console/assets
// are cached for a year, index.html is never cached. The gateway's CSP forbids inline scripts, so
// nothing may be inlined into index.html.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // The graph editor (React Flow, dagre) is loaded only when a workflow is opened.
    chunkSizeWarningLimit: 400,
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
