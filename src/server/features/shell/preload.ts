import { escapeHtml } from './html';

/** The part of Vite's build manifest (dist/web/.vite/manifest.json) the shell reads. */
export interface ManifestChunk {
  file: string;
  /** The chunk's name: a chunk group's (vite.config.ts) for a group's chunk. */
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * The manifest's key for a screen's code: the screen's own chunk, or, for a screen the build put
 * into a chunk group (vite.config.ts), that group's chunk, which the manifest knows by the
 * group's name alone.
 */
export function screenChunkKey(manifest: BuildManifest, screenSource: string, group?: string): string {
  if (manifest[screenSource] || !group) return screenSource;
  const key = Object.keys(manifest).find((candidate) => {
    const chunk = manifest[candidate];
    return chunk?.name === group && chunk.file.endsWith('.js');
  });
  return key ?? screenSource;
}

/** The built files the shell's own tags load (their URLs' attribute values, less `base`). */
export function shellAssetFiles(shell: string, base: string): Set<string> {
  const values = shell.split('"').filter((value) => value.startsWith(base));
  return new Set(values.map((value) => value.slice(base.length)));
}

/**
 * The <link> tags that let the browser fetch a screen's code and styles together with the
 * entry script, instead of only once the entry has run and asked the router for the screen:
 * on a phone's network that saves a whole round of requests before the screen can show.
 * Everything the entry loads itself is left out: the entry chunk of the manifest, or, when the
 * build put the entry's code into a chunk group of its own (vite.config.ts), the chunks the
 * shell's own script tags name (`loadedByShell`). Styles are preloaded, not applied, so they do
 * not hold up the first paint (the screen applies them when it renders), unless `applyStyles`:
 * when the shell itself draws the top of the screen (first-paint.ts), that paint needs them.
 */
export function screenPreloadTags(
  manifest: BuildManifest,
  screenSource: string,
  base: string,
  {
    applyStyles = false,
    loadedByShell = new Set(),
  }: { applyStyles?: boolean; loadedByShell?: ReadonlySet<string> } = {},
): string {
  const loadedByEntry = new Set<string>();
  const collect = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) collect(imported, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || loadedByShell.has(chunk.file)) collect(key, loadedByEntry);
  }

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
