import type { ComponentType } from 'react';
import { type CatalogueArea, screenCatalogueAreas } from './catalogueAreas';
import { needCatalogues } from './i18n';

/** Spec section 2: a screen's code that has not arrived after 120 seconds counts as failed. */
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

class ChunkLoadTimeoutError extends Error {
  override readonly name = 'ChunkLoadTimeoutError';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError('Loading this page took too long')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A React Router `lazy` function for a screen in its own chunk: the screen's code and its
 * messages in the active language are fetched together the first time its route is visited.
 */
export function lazyScreen(area: CatalogueArea, load: () => Promise<ComponentType>) {
  return async () => {
    const [Component] = await withTimeout(
      Promise.all([load(), needCatalogues(screenCatalogueAreas(area))]),
      CHUNK_LOAD_TIMEOUT_MS,
    );
    return { Component };
  };
}
