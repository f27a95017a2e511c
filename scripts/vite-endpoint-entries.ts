import fs from 'node:fs';
import path from 'node:path';
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
 * however an entry is formatted, nothing of the rest stays. The success's schema becomes a
 * function that loads it, with zod, the first time an answer is parsed (contractModules). A shape this does not know (a computed
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

/** The query that loads a module of the contract as it is written, schemas and all (contractModules). */
export const CONTRACT = '?contract';

/**
 * The browser's `response`: for a success with a body, a function that loads its schema with the
 * contract's own copy of the entry's module (contractModules); nothing for a page or a redirect.
 */
function leanResponse(value: Node, id: string, name: string): string | null {
  const lazy = `response:{schema:()=>import(${JSON.stringify(`./${path.basename(id)}${CONTRACT}`)}).then((m)=>m.${name}.response.schema)}`;
  // A success declared once for several entries (cases.ts): loaded the same way.
  if (value.type === 'Identifier') return lazy;
  if (value.type !== 'ObjectExpression')
    throw new Error(`${id}: an endpoint's response the web build cannot read: ${value.type}`);
  let schema = false;
  for (const property of value.properties as Node[]) {
    const key = keyOf(property, id);
    if (!SUCCESS.has(key)) throw new Error(`${id}: an endpoint's response names an unknown ${key}`);
    if (key === 'schema') schema = true;
  }
  return schema ? lazy : null;
}

/** The entry's object with only what the browser reads. */
function leanEntry(entry: Node, code: string, id: string, name: string): string {
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
      const response = leanResponse(value, id, name);
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

/** The names a top-level statement declares that may go when nothing else uses them. */
function removableNames(statement: Node, code: string): string[] {
  if (statement.type === 'ImportDeclaration')
    return (statement.specifiers as Node[]).map((specifier) => (specifier.local as Node).name as string);
  // A schema of the module's own, built by a call marked pure (the path's parameters).
  const [declaration, ...more] = (statement.declarations as Node[] | undefined) ?? [];
  const init = declaration?.init as Node | undefined;
  const id = declaration?.id as Node | undefined;
  if (statement.type !== 'VariableDeclaration' || more.length > 0 || !init || id?.type !== 'Identifier')
    return [];
  return PURE_MARK.test(code.slice(Math.max(0, init.start - 40), init.start)) ? [id.name as string] : [];
}

/**
 * `code` less the imports, and the module's own schemas built by pure calls, that nothing in it
 * uses any more: what only the left-out properties used (a request's schemas, a path's
 * parameters). Their modules are the contract's, loaded with its own copy (contractModules), not
 * with the page, which would otherwise take them in with their zod.
 */
function withoutUnused(code: string, parse: (code: string) => unknown): string {
  for (;;) {
    const program = parse(code) as unknown as Node;
    const unused = (program.body as Node[]).filter((statement) => {
      const names = removableNames(statement, code);
      const rest = code.slice(0, statement.start) + code.slice(statement.end);
      return (
        names.length > 0 && !names.some((name) => new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(rest))
      );
    });
    if (unused.length === 0) return code;
    for (const statement of unused.reverse())
      code = code.slice(0, statement.start) + code.slice(statement.end);
  }
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
  // The name each entry is exported by: the contract's copy of the module has it under the same.
  const names = new Map<Node, string>();
  for (const statement of program.body as Node[]) {
    const declaration = statement.declaration as Node | null | undefined;
    if (statement.type !== 'ExportNamedDeclaration' || declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const name = declarator.id as Node;
      if (isNode(declarator.init) && name.type === 'Identifier')
        names.set(declarator.init, name.name as string);
    }
  }
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
    const name = names.get(parent);
    if (!name) throw new Error(`${id}: an endpoint entry that is not an exported constant of its own`);
    replacements.push({ start, end: parent.end, text: leanEntry(entry, code, id, name) });
  }
  if (replacements.length === 0) return null;
  // From the end, so that each range still points at its text.
  let lean = code;
  for (const { start, end, text } of replacements.sort((a, b) => b.start - a.start)) {
    lean = lean.slice(0, start) + text + lean.slice(end);
  }
  return withoutUnused(lean, parse);
}

/**
 * The contract's own copy of its modules (a module's id with CONTRACT): what a lean entry's
 * response schema loads, the first time the browser parses such an answer. Its modules, and the
 * ones they import in turn, are read as they are written, apart from the ones the page's own code
 * imports: the screens take constants and small rules from the schemas' modules, and zod's schema
 * builders in those modules, unused there, are left out of the page's code. A page parses no
 * answer the server rendered it from (api.ts): a public page loads no zod until it sends a form.
 */
function contractModules(): Plugin {
  return {
    name: 'wellspring:contract-modules',
    apply: 'build',
    // Before Vite's resolver, which would resolve a copy's imports to the page's own modules.
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      const ownCopy = source.endsWith(CONTRACT);
      if (!ownCopy && !(importer.endsWith(CONTRACT) && source.startsWith('.'))) return null;
      const resolved = await this.resolve(
        ownCopy ? source.slice(0, -CONTRACT.length) : source,
        importer.endsWith(CONTRACT) ? importer.slice(0, -CONTRACT.length) : importer,
        { skipSelf: true },
      );
      return resolved ? `${resolved.id}${CONTRACT}` : null;
    },
    load(id) {
      return id.endsWith(CONTRACT) ? fs.readFileSync(id.slice(0, -CONTRACT.length), 'utf8') : null;
    },
  };
}

export function endpointEntriesForTheBrowser(): Plugin[] {
  return [
    contractModules(),
    {
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
    },
  ];
}
