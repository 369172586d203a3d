import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the api at /app; the typed client is compiled from its sources, as part of this bundle.
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  resolve: {
    alias: { '@voiceplane/client': fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url)) },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
});
