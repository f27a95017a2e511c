import type { Plugin } from 'vite';

/**
 * The endpoint table (src/common/endpoints) documents and validates each endpoint for the server
 * and the OpenAPI document: its summary, description and tags, its failure statuses, who may call
 * it, and the schemas of what a request sends. The web app reads none of them at run time (it
 * takes the request's types from them, which the compiler checks): it reads an entry's method,
 * path and the schema of a success's body. Left in, every call a page makes would carry a sentence
 * of documentation and schemas only the server parses.
 *
 * So the browser's build rewrites each `endpoint({...})` call of the table's modules into a plain
 * object of what the app reads, found in the module's syntax tree once TypeScript is compiled:
 * however an entry is formatted, nothing of the rest stays. A shape this does not know (a computed
 * or unknown property, an argument that is not an object literal, `endpoint` used other than
 * called) stops the build, rather than keeping bytes unnoticed.
 */

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** What the browser reads of an entry. */
const KEPT = new Set(['method', 'path']);
/** What only the server and the OpenAPI document read of an entry. */
const LEFT_OUT = new Set([
  'summary',
  'description',
  'tags',
  'params',
  'query',
  'body',
  'errors',
  'alternatives',
  'access',
  'hidden',
]);
/** The properties of a success (endpoint.ts): only the body's schema is read by the browser. */
const SUCCESS = new Set(['status', 'schema', 'type', 'redirect']);

/** A pure mark right before a call (`/*#__PURE__*\/ endpoint(`). */
const PURE_MARK = /\/\*\s*[#@]__PURE__\s*\*\/\s*$/;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** Every node of the tree, each with its parent. */
function* walk(node: Node, parent: Node | null = null): Generator<[Node, Node | null]> {
  yield [node, parent];
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) yield* walk(child, node);
    }
  }
}

function keyOf(property: Node, id: string): string {
  const key = property.key as Node;
  if (
    property.type !== 'Property' ||
    property.computed ||
    property.kind !== 'init' ||
    key.type !== 'Identifier'
  )
    throw new Error(`${id}: an endpoint entry's property the web build cannot read: ${property.type}`);
  return key.name as string;
}

/** The browser's `response`: the success's schema, or nothing for a page or a redirect. */
function leanResponse(value: Node, code: string, id: string): string | null {
  // A success declared once for several entries (cases.ts): a few bytes, kept as it is.
  if (value.type === 'Identifier') return `response:${code.slice(value.start, value.end)}`;
  if (value.type !== 'ObjectExpression')
    throw new Error(`${id}: an endpoint's response the web build cannot read: ${value.type}`);
  let schema: string | null = null;
  for (const property of value.properties as Node[]) {
    const key = keyOf(property, id);
    if (!SUCCESS.has(key)) throw new Error(`${id}: an endpoint's response names an unknown ${key}`);
    const inner = property.value as Node;
    if (key === 'schema') schema = code.slice(inner.start, inner.end);
  }
  return schema === null ? null : `response:{schema:${schema}}`;
}

/** The entry's object with only what the browser reads. */
function leanEntry(entry: Node, code: string, id: string): string {
  if (code[entry.start] !== '{' || code[entry.end - 1] !== '}')
    throw new Error(`${id}: the syntax tree's positions do not match the module's text`);
  const kept: string[] = [];
  const spread: string[] = [];
  for (const property of entry.properties as Node[]) {
    // A variant of another entry (drafts.ts): that entry is lean already.
    if (property.type === 'SpreadElement') {
      if (kept.length > 0) throw new Error(`${id}: an endpoint entry spreads after its own properties`);
      const argument = property.argument as Node;
      spread.push(code.slice(argument.start, argument.end));
      continue;
    }
    const key = keyOf(property, id);
    const value = property.value as Node;
    if (KEPT.has(key)) kept.push(`${key}:${code.slice(value.start, value.end)}`);
    else if (key === 'response') {
      const response = leanResponse(value, code, id);
      if (response) kept.push(response);
    } else if (!LEFT_OUT.has(key)) throw new Error(`${id}: an endpoint entry names an unknown ${key}`);
  }
  const object = `{${kept.join(',')}}`;
  // A spread reads as a side effect to the bundler; a call marked pure does not, so an unused
  // variant drops out.
  return spread.length > 0
    ? `/* @__PURE__ */ Object.assign({},${spread.join(',')},${object})`
    : `(${object})`;
}

/**
 * An endpoint module of the table, compiled to JavaScript, with each entry as the browser reads
 * it; null when it declares none. Throws on a shape it does not know.
 */
export function leanEndpointModule(
  code: string,
  id: string,
  parse: (code: string) => unknown,
): string | null {
  if (/[\\/]endpoint\.ts$/.test(id)) return null;
  const program = parse(code) as unknown as Node;
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  for (const [node, parent] of walk(program)) {
    if (node.type !== 'Identifier' || node.name !== 'endpoint') continue;
    if (parent?.type === 'ImportSpecifier') continue;
    const args = parent?.arguments as Node[] | undefined;
    const [entry] = args ?? [];
    if (parent?.type !== 'CallExpression' || parent.callee !== node || args?.length !== 1 || !entry)
      throw new Error(`${id}: \`endpoint\` is used other than called with one entry`);
    if (entry.type !== 'ObjectExpression')
      throw new Error(`${id}: an endpoint entry the web build cannot read: ${entry.type}`);
    // The call's pure mark goes with it: before an object it would mean nothing.
    const mark = PURE_MARK.exec(code.slice(Math.max(0, parent.start - 40), parent.start));
    const start = parent.start - (mark?.[0].length ?? 0);
    replacements.push({ start, end: parent.end, text: leanEntry(entry, code, id) });
  }
  if (replacements.length === 0) return null;
  // From the end, so that each range still points at its text.
  let lean = code;
  for (const { start, end, text } of replacements.sort((a, b) => b.start - a.start)) {
    lean = lean.slice(0, start) + text + lean.slice(end);
  }
  return lean;
}

export function endpointEntriesForTheBrowser(): Plugin {
  return {
    name: 'wellspring:endpoint-entries-for-the-browser',
    apply: 'build',
    // No `enforce: 'pre'`: the module reaches this as JavaScript, whatever TypeScript it was.
    transform: {
      filter: { id: /[\\/]src[\\/]common[\\/]endpoints[\\/]\w[\w-]*\.ts$/ },
      handler(code, id) {
        const lean = leanEndpointModule(code, id, (source) => this.parse(source));
        return lean === null ? null : { code: lean, map: null };
      },
    },
  };
}
