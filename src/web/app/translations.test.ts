import fs from 'node:fs';
import path from 'node:path';
import { parse as parseSource } from '@babel/parser';
import { getCatalogs } from '@lingui/cli/api';
import { type CatalogType, type ExtractedCatalogType, getConfig } from '@lingui/conf';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parse, type Token } from '@messageformat/parser';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The catalogues hold exactly what the code says, in every language: the extraction runs here, on
 * every `npm test`, and a message added, changed or removed in the code without its catalogues
 * fails this file (`npm run i18n:extract` updates them; then translate what it added).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const config = getConfig({ configPath: path.join(ROOT, 'lingui.config.ts'), skipValidation: true });

/**
 * A message's placeholders and tags (`{name}`, `<0>`), read with an ICU message parser: a
 * translation keeps the same ones (a plural's branches may each repeat one).
 */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'content') {
        for (const [tag] of token.value.matchAll(/<\/?\d+\/?>/g)) found.add(tag);
        continue;
      }
      if (token.type === 'octothorpe') continue;
      found.add(`{${token.arg}}`);
      if ('cases' in token) for (const branch of token.cases) visit(branch.tokens);
    }
  };
  visit(parse(message));
  return [...found].sort();
}

describe('the catalogues', () => {
  let catalogs: Awaited<ReturnType<typeof getCatalogs>>;
  beforeAll(async () => {
    catalogs = await getCatalogs(config);
  }, 60_000);

  it('hold every message of the code and nothing else, in every language', async () => {
    for (const catalog of catalogs) {
      const extracted: ExtractedCatalogType = (await catalog.collect()) ?? {};
      const inCode = Object.keys(extracted).sort();
      for (const locale of config.locales) {
        const stored: CatalogType = await catalog.read(locale);
        const inCatalogue = Object.keys(stored)
          .filter((id) => !stored[id]?.obsolete)
          .sort();
        const catalogue = catalog.getFilename(locale);
        expect({ catalogue, missing: inCode.filter((id) => !stored[id]) }).toEqual({
          catalogue,
          missing: [],
        });
        expect({ catalogue, unused: inCatalogue.filter((id) => !extracted[id]) }).toEqual({
          catalogue,
          unused: [],
        });
      }
    }
  }, 120_000);

  it('translate every message, keeping its placeholders, into something that compiles', async () => {
    for (const catalog of catalogs) {
      const source: CatalogType = await catalog.read(config.sourceLocale ?? 'en');
      for (const locale of config.locales.filter((language) => language !== config.sourceLocale)) {
        const stored: CatalogType = await catalog.read(locale);
        for (const [id, message] of Object.entries(stored)) {
          // A message with an id of its own (the server's) has its English as the source's translation.
          const english = message.message || source[id]?.translation || '';
          const where = `${catalog.getFilename(locale)}: ${JSON.stringify(english)}`;
          expect(message.translation, where).toBeTruthy();
          expect(placeholders(message.translation ?? ''), where).toEqual(placeholders(english));
          expect(() => compileMessage(message.translation ?? ''), where).not.toThrow();
        }
      }
    }
  });
});

/** Attributes people read or hear: their text must come from a catalogue. */
const READ_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label']);
/** The macros that put what they hold into a catalogue. */
const MESSAGE_ELEMENTS = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);

function webSources(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return webSources(file);
    return entry.name.endsWith('.tsx') && !entry.name.includes('.test.') ? [file] : [];
  });
}

interface Node {
  type: string;
  [key: string]: unknown;
}

/** Words a screen shows that no catalogue holds: JSX text and read attributes outside a message. */
function unwrappedTexts(file: string): string[] {
  const ast = parseSource(fs.readFileSync(file, 'utf8'), {
    sourceType: 'module',
    plugins: ['typescript', 'jsx'],
  });
  const found: string[] = [];
  const visit = (node: unknown, inMessage: boolean) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, inMessage);
      return;
    }
    const current = node as Node & { loc?: { start: { line: number } } };
    const line = current.loc?.start.line;
    if (current.type === 'JSXElement') {
      const opening = current.openingElement as { name: { name?: string }; attributes: Node[] };
      inMessage ||= MESSAGE_ELEMENTS.has(opening.name.name ?? '');
      // What assistive technology is told to skip is decoration (an icon's letter), not words.
      const hidden = opening.attributes.some(
        (attribute) =>
          (attribute.name as { name?: string } | undefined)?.name === 'aria-hidden' &&
          (attribute.value as Node | null)?.value === 'true',
      );
      if (hidden) return;
    }
    if (current.type === 'JSXText' && !inMessage && /\p{L}/u.test(String(current.value))) {
      found.push(`${line}: ${String(current.value).trim()}`);
    }
    if (current.type === 'JSXAttribute') {
      const name = (current.name as { name?: string }).name ?? '';
      const value = current.value as Node | null;
      if (
        READ_ATTRIBUTES.has(name) &&
        value?.type === 'StringLiteral' &&
        /\p{L}/u.test(String(value.value))
      ) {
        found.push(`${line}: ${name}="${String(value.value)}"`);
      }
    }
    for (const [key, child] of Object.entries(current)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end') visit(child, inMessage);
    }
  };
  visit(ast.program, false);
  return found;
}

describe('the screens', () => {
  it('show no words that are not in a catalogue', () => {
    const web = path.join(ROOT, 'src/web');
    const unwrapped = Object.fromEntries(
      webSources(web)
        .map((file) => [path.relative(web, file), unwrappedTexts(file)] as const)
        .filter(([, texts]) => texts.length > 0),
    );
    expect(unwrapped).toEqual({});
  });
});
