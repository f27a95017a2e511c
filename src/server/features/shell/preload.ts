import { escapeHtml } from './html';

/** The part of Vite's build manifest (dist/web/.vite/manifest.json) the shell reads. */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * The <link> tags that let the browser fetch a screen's code and styles together with the
 * entry script, instead of only once the entry has run and asked the router for the screen:
 * on a phone's network that saves a whole round of requests before the screen can show.
 * Everything the entry loads itself is left out. Styles are preloaded, not applied, so they do
 * not hold up the first paint (the screen applies them when it renders), unless `applyStyles`:
 * when the shell itself draws the top of the screen (first-paint.ts), that paint needs them.
 */
export function screenPreloadTags(
  manifest: BuildManifest,
  screenSource: string,
  base: string,
  { applyStyles = false }: { applyStyles?: boolean } = {},
): string {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  const loadedByEntry = new Set<string>();
  const collect = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) collect(imported, into);
  };
  const entryKey = Object.keys(manifest).find((key) => manifest[key] === entry);
  if (entryKey) collect(entryKey, loadedByEntry);

  const screenChunks = new Set<string>();
  collect(screenSource, screenChunks);
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const key of screenChunks) {
    if (loadedByEntry.has(key)) continue;
    const chunk = manifest[key] as ManifestChunk;
    scripts.push(chunk.file);
    styles.push(...(chunk.css ?? []));
  }
  return [
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="${escapeHtml(base + file)}" />`),
    ...styles.map((file) =>
      applyStyles
        ? `<link rel="stylesheet" crossorigin href="${escapeHtml(base + file)}" />`
        : `<link rel="preload" as="style" crossorigin href="${escapeHtml(base + file)}" />`,
    ),
  ].join('');
}
