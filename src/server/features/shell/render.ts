import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FirstPaint, FirstPaintRequest } from '../../../web/entry-server';

/** Where `vite build --ssr` puts the renderer of the first paint, inside the web app's build. */
export const RENDERER_DIR = '.server';
const RENDERER_FILE = path.join(RENDERER_DIR, 'entry-server.js');

export type RenderFirstPaint = (request: FirstPaintRequest) => Promise<FirstPaint | null>;

/** The built renderer of the public screens' first paint, or null when the build has none. */
export async function loadRenderer(webRoot: string): Promise<RenderFirstPaint | null> {
  const file = path.join(webRoot, RENDERER_FILE);
  if (!fs.existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as { renderFirstPaint: RenderFirstPaint };
  return module.renderFirstPaint;
}

/**
 * The renderer's way to the API: a GET through the server's own routes, as the visitor (their
 * cookies and address), so the first paint shows exactly what the browser's own call would get,
 * with every rule, scope and audit record of that call. Cookies the API sets go to the visitor.
 */
export function visitorTransport(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    if ((init.method ?? 'GET') !== 'GET')
      throw new Error(`The first paint only reads: ${init.method} ${url}`);
    const answer = await app.inject({
      method: 'GET',
      url,
      remoteAddress: request.ip,
      headers: {
        accept: 'application/json',
        ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      },
    });
    const cookies = answer.headers['set-cookie'];
    if (cookies) reply.header('set-cookie', cookies);
    return new Response(answer.body || null, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    });
  };
}
