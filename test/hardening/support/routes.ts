import type { FastifyInstance } from 'fastify';

/** "METHOD /path" as the app registered it, e.g. "POST /api/survey/link/:hashLink/". */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'} /api/${string}`;

/** One node of the radix tree: its indentation, its own part of the path, and its methods if any. */
const LINE = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every `/api/` route the app has registered, read from Fastify's own radix tree
 * (`printRoutes()`: one line per node, each holding its part of the path, four characters of
 * indentation per level). HEAD routes are the ones Fastify adds for each GET and are left out.
 * Each key is checked against the router with `hasRoute`, so a parsing mistake cannot silently
 * invent or mangle a route.
 */
export function apiRoutes(app: FastifyInstance): RouteKey[] {
  const stack: string[] = [];
  const keys = new Set<RouteKey>();
  for (const line of app.printRoutes().split('\n')) {
    if (!line.trim()) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`Unexpected line in the route tree: ${JSON.stringify(line)}`);
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    for (const method of match[3] ? match[3].split(', ') : []) {
      if (method === 'HEAD' || !path.startsWith('/api/')) continue;
      if (!app.hasRoute({ method: method as 'GET', url: path })) {
        throw new Error(`Route tree parsed to ${method} ${path}, which the router does not know`);
      }
      keys.add(`${method} ${path}` as RouteKey);
    }
  }
  if (keys.size === 0) throw new Error('No /api/ route found in the route tree');
  return [...keys].sort();
}

export function isUnsafe(key: RouteKey): boolean {
  return !key.startsWith('GET ') && !key.startsWith('OPTIONS ');
}
