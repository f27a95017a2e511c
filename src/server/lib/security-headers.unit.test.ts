import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { isBuiltSubresource } from '../features/shell';
import { securityHeaderSetter } from './security-headers';

/** The headers the setter writes for a GET of `url`, names lower-cased. */
function headersFor(url: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  const request = { method: 'GET', url, headers: {} } as IncomingMessage;
  securityHeaderSetter(loadConfig({ LOG_LEVEL: 'silent' }).web, isBuiltSubresource)(request, response);
  return headers;
}

const PAGE_ONLY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('security headers', () => {
  it('give a built script or stylesheet only those a subresource obeys: nosniff, same-origin', () => {
    for (const url of ['/react-static/assets/app-B1x.js', '/react-static/assets/survey-C2y.css?v=1']) {
      const headers = headersFor(url);
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      expect(headers['cross-origin-resource-policy'], url).toBe('same-origin');
      for (const name of PAGE_ONLY) expect(headers[name], `${url}: ${name}`).toBeUndefined();
    }
  });

  it('give pages, the API and every other file the whole set', () => {
    for (const url of [
      '/',
      '/survey/link/abc/',
      '/api/user/',
      '/react-static/favicon.svg',
      '/react-static/assets/logo-D3z.svg',
      '/react-static/assets/app.js/',
      '/react-static/app-B1x.js',
    ]) {
      const headers = headersFor(url);
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      for (const name of PAGE_ONLY) expect(headers[name], `${url}: ${name}`).toBeDefined();
    }
  });
});
