import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Text formats worth compressing; images and fonts are compressed already. The HTML shell is
 * not among them: the server renders it from index.html at start and compresses it itself.
 */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map)$/;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) twin next to every compressible file of the build,
 * at the highest levels: this runs once per build, not per request, so the slow maximum costs
 * nothing at serving time. The server sends the twin the browser accepts (@fastify/static's
 * `preCompressed`). A twin that would not be smaller than its file is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'wellspring:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const content = await fs.readFile(full);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < content.length) await fs.writeFile(`${full}.br`, br);
          if (gz.length < content.length) await fs.writeFile(`${full}.gz`, gz);
        }),
      );
    },
  };
}
