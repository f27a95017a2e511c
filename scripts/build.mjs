// `npm run build`: everything production runs, compiled to JavaScript:
// - dist/web: the web app (Vite), with the server's renderer of its first paint in dist/web/.server;
// - dist/server: the server, its command line and its SMTP thread (esbuild), run by `node`, with
//   the catalogues of its mail in dist/server/locales.
// `node scripts/build.mjs web <folder>` builds the web app alone into another folder (the tests do).
// Build tools are devDependencies: they are loaded only here, never by the running server.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const WEB_OUT = path.join(ROOT, 'dist/web');
export const SERVER_OUT = path.join(ROOT, 'dist/server');

/** The web app into `outDir`, then the renderer of its first paint into `outDir`/.server. */
export async function buildWebApp(outDir = WEB_OUT) {
  // A production build whatever the environment says: Vite takes NODE_ENV (set to `test` under
  // the test runner) to choose React's development JSX, which the renderer's React lacks.
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  // The config's own root (src/web) must stay: an inline root would replace it.
  const common = {
    root: path.join(ROOT, 'src/web'),
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
  };
  await build({ ...common, build: { outDir, emptyOutDir: true } });
  await build({
    ...common,
    build: { ssr: 'entry-server.tsx', outDir: path.join(outDir, '.server'), emptyOutDir: true },
  });
}

/**
 * The server as ES modules for Node 20.19+. Packages stay imports of node_modules (production
 * installs the server's dependencies); our own code, shared contract included, is bundled in.
 */
export async function buildServer(outDir = SERVER_OUT) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: {
      main: 'src/server/main.ts',
      cli: 'src/server/cli.ts',
      // Started as a thread of its own (src/server/lib/mail/transport.ts), so an entry of its own.
      'smtp-thread': 'src/server/lib/mail/smtp-thread.ts',
    },
    outdir: outDir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // The mail catalogues, read at run time beside the compiled modules (src/server/lib/languages.ts).
  const locales = path.join(outDir, 'locales');
  fs.rmSync(locales, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'src/server/locales'), locales, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what = 'all', outDir] = process.argv.slice(2);
  if (what === 'web') await buildWebApp(outDir);
  else if (what === 'server') await buildServer(outDir);
  else {
    await buildWebApp();
    await buildServer();
  }
}
