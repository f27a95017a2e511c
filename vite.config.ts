import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';

/**
 * The web app is built into dist/web and served by our server under /react-static/.
 * Screen routes (/, /login/, ...) are answered by the server with the built index.html,
 * so the router itself works from the site root and only asset URLs carry the base path.
 */
export default defineConfig({
  root: 'src/web',
  base: '/react-static/',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The strict CSP forbids inline scripts; every chunk must be a file.
    assetsInlineLimit: 0,
    // .vite/manifest.json: the server reads which files each screen became, to preload them.
    manifest: true,
    rolldownOptions: {
      // Brotli at its highest level (precompress) takes seconds by design: once per build, so
      // that no request pays for it. Not a slowness worth a warning on every build.
      checks: { bundlerTimings: false },
    },
  },
  server: {
    // `npx vite` for UI work: API calls go to a locally running server (npm run dev).
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
});
