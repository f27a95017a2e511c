/**
 * fast-check arbitraries for hostile input: wrong types, missing and extra fields, huge strings
 * and arrays, unicode edge cases, prototype-pollution keys, SQL and HTML/script payloads,
 * invalid ids and UUIDs, broken JSON and wrong content types. Values are built as a small tree
 * and serialised by hand, so keys such as "__proto__" reach the server exactly as written.
 */
import fc from 'fast-check';
import { CSV, FORM, type Req } from './harness';
import type { RouteKey } from './routes';

/** A JSON object written entry by entry (duplicate and prototype keys included). */
export class Entries {
  constructor(readonly entries: [string, Json][]) {}
}

/** JSON text spliced in as-is, e.g. numbers JavaScript cannot hold. */
export class Token {
  constructor(readonly text: string) {}
}

export type Json = null | boolean | number | string | Json[] | Entries | Token;

export function toJson(value: Json): string {
  if (value instanceof Token) return value.text;
  if (value instanceof Entries) {
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  // JSON.stringify writes lone surrogates as \\udXXX escapes, so the server parses them back.
  return JSON.stringify(value) ?? 'null';
}

/** A plain JS object (from the catalogue) as an Entries tree. */
export function fromValue(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(fromValue);
  if (typeof value === 'object') {
    return new Entries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, fromValue(item)]),
    );
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Leaves.

export const UNICODE_EDGES = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\udc00\ud800',
  '\u202etxt.exe',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  'مرحبا بالعالم',
  '\u200b',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '👩‍👩‍👧‍👦',
  '🙂🙃',
  '🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'Z̴̡̛̗͉̈́a̷̢͔̓l̸̰̓g̷̡̈o̶͎͆',
  'İıßẞ',
  '\u0085\u2028\u2029',
  '\r\n\t\v\f',
  '\u001b[31mred',
  '\u00a0\u3000',
  '𝕏𝕐ℤ',
  '\uffff\ufffe',
  '\u{10ffff}',
] as const;

export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "' OR 1=1 --",
  '" OR ""="',
  '1; DROP TABLE users; --',
  "'; DELETE FROM submissions; --",
  "1' UNION SELECT password_hash, email FROM users --",
  "admin'--",
  '%',
  '_',
  '\\',
  "\\'; --",
  '1 AND SLEEP(5)',
  "'; SELECT pg_sleep(5); --",
  '$1',
  '?',
] as const;

export const HTML_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
  '</textarea><script>alert(1)</script>',
  '{{constructor.constructor("alert(1)")()}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, meant literally.
  '${7*7}',
  '=HYPERLINK("http://evil.example","click")',
  '+SUM(1+1)',
  '-2+3',
  '@SUM(1)',
  '<!--',
  ']]>',
  '&lt;b&gt;&amp;',
] as const;

export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
] as const;

/** Ids as paths and bodies should never accept them. */
export const BAD_IDS = [
  '-1',
  '0',
  '-0',
  '1.5',
  '1e3',
  '1e400',
  '0x10',
  '0b1',
  '0o7',
  'NaN',
  'Infinity',
  '-Infinity',
  ' 7 ',
  '٣',
  '१',
  '７',
  '1/0',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999999999999',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  'g1b2c3d4-e5f6-7890-abcd-ef1234567890',
  '..',
  '.',
  '%00',
  '%',
  '%zz',
  '%2F',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
] as const;

const hugeString = fc
  .tuple(
    fc.constantFrom(1_000, 10_000, 100_000, 300_000),
    fc.constantFrom('A', 'é', '🙂', '\u0000', '<', "'"),
  )
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...UNICODE_EDGES), weight: 3 },
  fc.constantFrom(...SQL_PAYLOADS),
  fc.constantFrom(...HTML_PAYLOADS),
  fc.constantFrom(...BAD_IDS),
  fc.constantFrom(...PROTO_KEYS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .tuple(fc.constantFrom(...UNICODE_EDGES, ...HTML_PAYLOADS, ...SQL_PAYLOADS), fc.string({ maxLength: 10 }))
    .map(([nasty, text]) => `${text}${nasty}${text}`),
  hugeString,
  fc.constant(''),
  fc.constant('   '),
);

const weirdNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.integer(),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE),
  fc
    .constantFrom('1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '0.1e1')
    .map((text) => new Token(text)),
);

const leaf: fc.Arbitrary<Json> = fc.oneof(
  hostileString,
  weirdNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...BAD_IDS),
);

/** Nested values: arrays and objects whose keys include prototype-pollution keys. */
export const hostileValue: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), tie('value')), {
        maxLength: 4,
      })
      .map((entries) => new Entries(entries)),
  ),
})).value;

const hugeArray: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom(1_000, 20_000, 100_000), fc.constantFrom<Json>(1, 'x', null, ['a']))
  .map(([length, item]) => Array.from({ length }, () => item));

/** What replaces a field: anything hostile, including huge arrays and deep nesting. */
export const hostileField: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: hostileValue },
  { weight: 1, arbitrary: hugeArray },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 5_000 })
      .map((depth) => new Token(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
  },
);

// ---------------------------------------------------------------------------------------------
// Mutations of a valid request.

export type Mutation =
  | { kind: 'hostile-text'; pick: number; text: string }
  | { kind: 'replace-field'; pick: number; value: Json }
  | { kind: 'drop-field'; pick: number }
  | { kind: 'extra-field'; key: string; value: Json }
  | { kind: 'prototype-key'; key: (typeof PROTO_KEYS)[number]; value: Json; nested: boolean }
  | { kind: 'replace-answers'; entries: [string, Json][] }
  | { kind: 'whole-body'; value: Json }
  | { kind: 'raw-body'; text: string; contentType: string }
  | { kind: 'path-param'; pick: number; segment: string }
  | { kind: 'query'; pairs: [string, string][] };

const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"just a string"',
  '123',
  'true',
  '{"a":1,"a":2}',
  '{"answers":{"1":"1","1":"2"}}',
  '\u0000',
  '\ufeff{}',
  "{'single': 'quotes'}",
  '{"a": NaN}',
  '{"a": undefined}',
  '<xml/>',
  'a=1&b=2',
  '--boundary\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--boundary--',
] as const;

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  FORM,
  'multipart/form-data; boundary=boundary',
  'application/xml',
  'application/vnd.api+json',
  '',
] as const;

/** A path segment: hostile text percent-encoded, or hostile bytes as they are. */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...BAD_IDS),
  hostileString.filter((text) => text.length < 5_000).map((text) => encodeURIComponent(safeForUri(text))),
  fc.constantFrom('..%2F..%2Fpackage.json', '%2e%2e', '....//', '%c0%ae%c0%ae', 'a'.repeat(300), '%E2%80%AE'),
);

/** encodeURIComponent throws on lone surrogates; those go in as their replacement character. */
function safeForUri(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

const queryPairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(
        'offset',
        'limit',
        '__proto__',
        'constructor',
        '__proto__[polluted]',
        'constructor[prototype][polluted]',
      ),
      fc.string({ maxLength: 8 }),
    ),
    fc.oneof(
      fc.constantFrom(...BAD_IDS),
      hostileString.filter((text) => text.length < 2_000).map(safeForUri),
    ),
  ),
  { minLength: 1, maxLength: 4 },
);

/** Text aimed at storage: what databases refuse or alter, and what renders or queries wrongly. */
const storageText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...UNICODE_EDGES),
  fc.constantFrom(...SQL_PAYLOADS, ...HTML_PAYLOADS),
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('\u0000', '\ud800', '\udfff', '\u0000\u0000'),
      fc.string({ maxLength: 8 }),
    )
    .map((parts) => parts.join('')),
);

export function mutationsFor(route: RouteKey, base: Req): fc.Arbitrary<Mutation[]> {
  const params = [...route.matchAll(/:(\w+)|\*/g)].length;
  const hasBody = base.body !== undefined || base.raw !== undefined;
  const options: fc.Arbitrary<Mutation>[] = [
    fc.record({ kind: fc.constant('query' as const), pairs: queryPairs }),
    fc.record({
      kind: fc.constant('raw-body' as const),
      text: fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ unit: 'binary', maxLength: 60 })),
      contentType: fc.constantFrom(...CONTENT_TYPES),
    }),
    fc.record({ kind: fc.constant('whole-body' as const), value: hostileField }),
    fc.record({
      kind: fc.constant('prototype-key' as const),
      key: fc.constantFrom(...PROTO_KEYS),
      value: fc.oneof(hostileValue, fc.constant(new Entries([['polluted', 'yes']]))),
      nested: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('extra-field' as const),
      key: fc.string({ maxLength: 12 }),
      value: hostileValue,
    }),
  ];
  if (hasBody) {
    // Text where text belongs: the request stays well-typed, so the string reaches storage.
    const hostileText = fc.record({
      kind: fc.constant('hostile-text' as const),
      pick: fc.nat(),
      text: hostileString,
    });
    options.push(hostileText, hostileText, hostileText);
    options.push(
      fc.record({ kind: fc.constant('replace-field' as const), pick: fc.nat(), value: hostileField }),
      fc.record({ kind: fc.constant('drop-field' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('replace-answers' as const),
        entries: fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...BAD_IDS, ...PROTO_KEYS), fc.string({ maxLength: 12 })),
            hostileValue,
          ),
          { maxLength: 6 },
        ),
      }),
    );
  }
  if (params > 0) {
    const pathParam = fc.record({
      kind: fc.constant('path-param' as const),
      pick: fc.nat(),
      segment: hostileSegment,
    });
    options.push(pathParam, pathParam);
  }
  const chaos = fc.array(fc.oneof(...options), { minLength: 1, maxLength: 3 });
  if (!hasBody) return chaos;
  // Half the cases keep the request well-formed and hostile only in its text, so that the text
  // gets past validation to the queries and the stored rows.
  const wellTyped = fc.array(
    fc.record({ kind: fc.constant('hostile-text' as const), pick: fc.nat(), text: storageText }),
    { minLength: 1, maxLength: 2 },
  );
  return fc.oneof(wellTyped, chaos);
}

/**
 * Applies the mutations to the route's valid request. Form posts (the contact form) keep their
 * form encoding for field mutations, so the hostile values reach its own parser.
 */
export function applyMutations(route: RouteKey, base: Req, mutations: Mutation[]): Req {
  if (base.contentType === CSV) return applyCsvMutations(route, base, mutations);
  const isForm = base.contentType === FORM;
  let entries: [string, Json][] = isForm
    ? [...new URLSearchParams(base.raw ?? '')].map(([key, value]) => [key, value])
    : base.body && typeof base.body === 'object'
      ? ((fromValue(base.body) as Entries).entries ?? [])
      : [];
  let body: Json | undefined =
    base.body === undefined && base.raw === undefined ? undefined : new Entries(entries);
  let raw: { text: string; contentType: string } | null = null;
  let url = base.url;
  const query: [string, string][] = [];

  for (const mutation of mutations) {
    switch (mutation.kind) {
      case 'replace-field':
      case 'drop-field': {
        if (entries.length === 0) break;
        const index = mutation.pick % entries.length;
        if (mutation.kind === 'drop-field') entries = entries.filter((_entry, at) => at !== index);
        else entries = entries.map((entry, at) => (at === index ? [entry[0], mutation.value] : entry));
        body = new Entries(entries);
        break;
      }
      case 'hostile-text': {
        const paths = stringPaths(entries);
        const path = paths[mutation.pick % Math.max(1, paths.length)];
        if (!path) break;
        entries = replaceAt(entries, path, mutation.text);
        body = new Entries(entries);
        break;
      }
      case 'extra-field':
        entries = [...entries, [mutation.key, mutation.value]];
        body = new Entries(entries);
        break;
      case 'prototype-key': {
        const added: [string, Json] = [mutation.key, mutation.value];
        if (mutation.nested && entries.length > 0) {
          // Inside the first object-valued field (answers, answer_choices), or wrapping one.
          const index = entries.findIndex(([, value]) => value instanceof Entries);
          const at = index >= 0 ? index : 0;
          entries = entries.map((entry, position) => {
            if (position !== at) return entry;
            const inner = entry[1] instanceof Entries ? entry[1].entries : [];
            return [entry[0], new Entries([...inner, added])];
          });
        } else {
          entries = [...entries, added];
        }
        body = new Entries(entries);
        break;
      }
      case 'replace-answers': {
        const index = entries.findIndex(([key]) => key === 'answers');
        const answers = new Entries(mutation.entries);
        entries =
          index >= 0
            ? entries.map((entry, at) => (at === index ? ['answers', answers] : entry))
            : [...entries, ['answers', answers]];
        body = new Entries(entries);
        break;
      }
      case 'whole-body':
        body = mutation.value;
        entries = mutation.value instanceof Entries ? mutation.value.entries : [];
        break;
      case 'raw-body':
        raw = { text: mutation.text, contentType: mutation.contentType };
        break;
      case 'path-param': {
        const pattern = route.slice(route.indexOf(' ') + 1);
        const names = [...pattern.matchAll(/:(\w+)|\*/g)];
        const chosen = names[mutation.pick % names.length];
        if (!chosen || chosen.index === undefined) break;
        // Rebuild the URL from the pattern: the chosen parameter hostile, the others as they were.
        url = replaceSegment(pattern, url, chosen.index, mutation.segment);
        break;
      }
      case 'query':
        query.push(...mutation.pairs);
        break;
    }
  }

  if (query.length > 0) {
    const text = query
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
      .join('&');
    url = `${url}${url.includes('?') ? '&' : '?'}${text}`;
  }
  const method = base.method;
  if (raw) return { method, url, raw: raw.text, contentType: raw.contentType };
  if (body === undefined) return { method, url };
  if (isForm && body instanceof Entries) {
    const form = new URLSearchParams();
    for (const [key, value] of body.entries)
      form.append(key, typeof value === 'string' ? safeForUri(value) : toJson(value));
    return { method, url, raw: form.toString(), contentType: FORM };
  }
  return { method, url, raw: toJson(body), contentType: 'application/json' };
}

/** A CSV cell holding the text exactly, whatever quotes, commas and line breaks it has. */
function csvCell(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * A CSV upload (the roster): hostile text goes into the file's cells, so it reaches the CSV
 * reader and the stored rows; the other mutations apply as to any request (a JSON body, a raw
 * body of another type, a query), which the route must refuse.
 */
function applyCsvMutations(route: RouteKey, base: Req, mutations: Mutation[]): Req {
  const lines = (base.raw ?? '').split('\r\n');
  const textMutations = mutations.filter((mutation) => mutation.kind === 'hostile-text');
  for (const mutation of textMutations) {
    const cells = (lines[1] ?? '').match(/"(?:[^"]|"")*"|[^,]+/g) ?? [];
    cells[mutation.pick % Math.max(1, cells.length)] = csvCell(mutation.text);
    lines[1] = cells.join(',');
  }
  const csvText = lines.join('\r\n');
  const others = mutations.filter((mutation) => mutation.kind !== 'hostile-text');
  if (others.length === 0) return { ...base, raw: csvText };
  const asJson = applyMutations(
    route,
    { method: base.method, url: base.url, body: { csv: csvText } },
    others,
  );
  const keepsCsv = others.every((mutation) => mutation.kind === 'query' || mutation.kind === 'path-param');
  return keepsCsv ? { ...asJson, raw: csvText, contentType: CSV } : asJson;
}

/** Paths (lists of keys) to every string value in the entries, nested objects included. */
function stringPaths(entries: [string, Json][], prefix: string[] = []): string[][] {
  return entries.flatMap(([key, value]) => {
    if (typeof value === 'string') return [[...prefix, key]];
    if (value instanceof Entries) return stringPaths(value.entries, [...prefix, key]);
    return [];
  });
}

function replaceAt(entries: [string, Json][], path: string[], text: string): [string, Json][] {
  const [head, ...rest] = path;
  return entries.map(([key, value]) => {
    if (key !== head) return [key, value];
    if (rest.length === 0) return [key, text];
    return [key, value instanceof Entries ? new Entries(replaceAt(value.entries, rest, text)) : value];
  });
}

/** The URL with the segment the pattern's parameter (starting at `patternIndex`) covers replaced. */
function replaceSegment(pattern: string, url: string, patternIndex: number, segment: string): string {
  const [path = '', search] = url.split('?');
  const urlParts = path.split('/');
  let offset = 0;
  for (const [index, part] of pattern.split('/').entries()) {
    if (offset === patternIndex) {
      urlParts[index] = segment;
      break;
    }
    offset += part.length + 1;
  }
  return `${urlParts.join('/')}${search === undefined ? '' : `?${search}`}`;
}
