import type { FastifyInstance, RouteOptions } from 'fastify';
import { createTestApp } from '../../helpers/app';

/** "METHOD /path" as the app registered it, e.g. "POST /api/survey/link/:hashLink/". */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'} /api/${string}`;

/** A route's declared secret parameters (`config.secretParams`), which request logs redact. */
interface RouteSecrets {
  secretParams?: readonly string[];
}

export interface RegisteredRoute {
  method: string;
  url: string;
  /** Whether the route declares a body schema. */
  hasBody: boolean;
  /** The path and query parameters it declares secret. */
  secretParams: readonly string[];
  /** `:name` parameters of its path, and `*` for a wildcard. */
  pathParams: string[];
  /** The keys of its querystring schema. */
  queryParams: string[];
}

function pathParams(url: string): string[] {
  return [...url.matchAll(/:(\w+)|(\*)/g)].map((match) => match[1] ?? '*');
}

/** The keys of a zod object schema (classic or mini), or none. */
function objectKeys(schema: unknown): string[] {
  const shape =
    (schema as { shape?: object } | undefined)?.shape ??
    (schema as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Records every route the app registers, from Fastify's `onRoute` hook: pass `onRoute` to the
 * app factory, which adds it before any feature, and read `apiRoutes()` once the app is ready.
 */
export function routeRecorder() {
  const registered: RegisteredRoute[] = [];
  return {
    onRoute(route: RouteOptions & { prefix?: string; routePath?: string }) {
      const urls = [route.url];
      // A plugin's root route ('/' under a prefix) is served with and without the trailing
      // slash (prefixTrailingSlash 'both', the default); the hook hears of the bare one only.
      const both = route.prefixTrailingSlash === undefined || route.prefixTrailingSlash === 'both';
      if (route.prefix && route.routePath === '' && both) urls.push(`${route.url}/`);
      const hasBody = route.schema?.body !== undefined;
      const secretParams = (route.config as RouteSecrets | undefined)?.secretParams ?? [];
      const queryParams = objectKeys(route.schema?.querystring);
      for (const method of [route.method].flat()) {
        for (const url of urls)
          registered.push({ method, url, hasBody, secretParams, pathParams: pathParams(url), queryParams });
      }
    },
    /** Every route as registered, pages and HEAD routes included, with what the suites check of it. */
    allRoutes(): readonly RegisteredRoute[] {
      if (registered.length === 0) throw new Error('No route was registered');
      return registered;
    },
    /** The `/api/` routes that declare a body schema: validated, so refusals must come first. */
    bodyRoutes(app: FastifyInstance): RouteKey[] {
      const withBody = new Set(
        registered.filter((route) => route.hasBody).map((route) => `${route.method} ${route.url}`),
      );
      return this.apiRoutes(app).filter((key) => withBody.has(key));
    },
    /**
     * Every `/api/` route, sorted. HEAD routes are the ones Fastify adds for each GET and are left
     * out. Each key is checked against the router with `hasRoute`, so a route the hook reported
     * but the router does not serve cannot pass as covered.
     */
    apiRoutes(app: FastifyInstance): RouteKey[] {
      const keys = new Set<RouteKey>();
      for (const { method, url } of registered) {
        if (method === 'HEAD' || !url.startsWith('/api/')) continue;
        if (!app.hasRoute({ method: method as 'GET', url })) {
          throw new Error(`The hook reported ${method} ${url}, which the router does not know`);
        }
        keys.add(`${method} ${url}` as RouteKey);
      }
      if (keys.size === 0) throw new Error('No /api/ route was registered');
      return [...keys].sort();
    },
  };
}

/** The `/api/` routes of the app as the tests build it: what every hardening table must cover. */
export async function discoverApiRoutes(): Promise<RouteKey[]> {
  const recorder = routeRecorder();
  const ctx = await createTestApp('sqlite', {}, { onRoute: recorder.onRoute });
  try {
    return recorder.apiRoutes(ctx.app);
  } finally {
    await ctx.close();
  }
}

export function isUnsafe(key: RouteKey): boolean {
  return !key.startsWith('GET ') && !key.startsWith('OPTIONS ');
}

/** A route's entry in a hardening table; a route the table leaves out fails its own test. */
export function entryOf<Entry>(
  table: Partial<Record<RouteKey, Entry>>,
  route: RouteKey,
  name: string,
): Entry {
  const entry = table[route];
  if (!entry) throw new Error(`${route} is registered but missing from the ${name}`);
  return entry;
}
