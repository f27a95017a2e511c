import path from 'node:path';
import { transformAsync } from '@babel/core';
import { createCompiledCatalog, getCatalogForFile, getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import type { Plugin } from 'vite';

const CONFIG_FILE = path.resolve(import.meta.dirname, '../lingui.config.ts');

/**
 * Lingui's macros (`<Trans>`, `t`, `msg`, `plural`) become calls of its small runtime with the
 * message's id: the build of the browser keeps no English text in the code, only in the English
 * catalogue, as every other language. The macros are Babel's; the rest of the build is not, so
 * only the modules that import a macro go through Babel, and only for this (TypeScript and JSX
 * are left as they are for the build's own compiler).
 */
export function linguiMacros({ production }: { production: boolean }): Plugin {
  return {
    name: 'wellspring:lingui-macros',
    enforce: 'pre',
    transform: {
      filter: { id: /\.tsx?$/, code: /@lingui\/(core|react)\/macro/ },
      async handler(code, id) {
        const result = await transformAsync(code, {
          filename: id,
          babelrc: false,
          configFile: false,
          sourceMaps: true,
          parserOpts: { plugins: ['typescript', 'jsx'] },
          plugins: [
            [
              '@lingui/babel-plugin-lingui-macro',
              { stripNonEssentialFields: production, linguiConfig: linguiConfig() },
            ],
          ],
        });
        return result?.code ? { code: result.code, map: result.map } : null;
      },
    },
  };
}

let config: ReturnType<typeof getConfig> | undefined;
function linguiConfig() {
  config ??= getConfig({ configPath: CONFIG_FILE, skipValidation: true });
  return config;
}

/**
 * A catalogue (`locales/<language>/<area>.po`) imported by the app becomes a module of its
 * compiled messages: parsed once at build time, so the browser needs no message parser. A
 * message missing in a language falls back to English (the catalogue test keeps none missing).
 */
export function linguiCatalogues(): Plugin {
  return {
    name: 'wellspring:lingui-catalogues',
    transform: {
      filter: { id: /\.po$/ },
      async handler(_source, id) {
        const config = linguiConfig();
        const catalogs = await getCatalogs(config);
        const { locale, catalog } = getCatalogForFile(path.relative(config.rootDir ?? '.', id), catalogs);
        const { messages } = await catalog.getTranslations(locale, {
          fallbackLocales: config.fallbackLocales ?? {},
          sourceLocale: config.sourceLocale ?? 'en',
        });
        const { source, errors } = createCompiledCatalog(locale, messages, {
          namespace: 'es',
          strict: false,
        });
        if (errors.length > 0) {
          this.error(`${id}: ${errors.map((error) => `${error.id}: ${error.error.message}`).join('; ')}`);
        }
        return { code: source, map: null };
      },
    },
  };
}
