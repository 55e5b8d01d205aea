import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard's build: served by the service from dist/renderer (strict CSP: no inline scripts),
// and for development `vite` proxies /api to a running service on the default port.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    // The service sets a CSP without 'unsafe-eval'; keep the module preload polyfill out of inline code.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:5100', changeOrigin: false },
    },
  },
});
