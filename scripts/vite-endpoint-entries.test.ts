import fs from 'node:fs';
import path from 'node:path';
import { parseAst, transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import { leanEndpointModule } from './vite-endpoint-entries.ts';

const TABLE = path.resolve(import.meta.dirname, '../src/common/endpoints');

/** A module of the table as the build hands it over: compiled to JavaScript. */
async function compiled(source: string, id = 'module.ts'): Promise<string> {
  return (await transformWithOxc(source, id, { lang: 'ts' })).code;
}

async function lean(source: string): Promise<string | null> {
  return leanEndpointModule(await compiled(source), 'module.ts', (code) => parseAst(code));
}

const HEAD = "import { endpoint } from './endpoint';\nimport { Answer, Body } from './schemas';\n";

describe("the browser's endpoint entries", () => {
  it('keep of every entry of the table only its method, path and answer schema', async () => {
    const lean =
      /= (?:\(\{|\/\* @__PURE__ \*\/ Object\.assign\(\{\},\w+,\{)method:"[A-Z]+",path:"[^"]*"(?:,response:\{schema:\(\)=>import\("\.\/[\w-]+\.ts\?contract"\)\.then\(\(m\)=>m\.(\w+)\.response\.schema\)\})?\}\)+;$/;
    let entries = 0;
    for (const file of fs.readdirSync(TABLE).filter((name) => /^[\w-]+\.ts$/.test(name))) {
      const id = path.join(TABLE, file);
      const result = leanEndpointModule(await compiled(fs.readFileSync(id, 'utf8'), id), id, parseAst) ?? '';
      expect(result).not.toMatch(/\bendpoint\(/);
      for (const line of result.split('\n').filter((text) => text.includes('method:"'))) {
        expect(line, file).toMatch(lean);
        // A schema is the entry's own, in the contract's copy of the same module.
        const [, exported] = /^export const (\w+) =/.exec(line) ?? [];
        const [, loaded] = lean.exec(line) ?? [];
        if (loaded) expect([loaded, line.includes(`"./${file}?contract"`)], file).toEqual([exported, true]);
        entries += 1;
      }
    }
    expect(entries).toBeGreaterThan(100);
  });

  it('leave out properties however they are written', async () => {
    const result = await lean(
      `${HEAD}export const save = /*#__PURE__*/ endpoint({
        method: 'POST',
        path: '/api/things/',
        summary:
          'A summary ' +
          'on two lines',
        tags: [
          'things',
        ],
        body: Body,
        response: {
          status: 200,
          schema: Answer,
          type: 'text/csv',
        },
        errors: [400,
          409],
        access: { staff: 'cases' },
      });`,
    );
    expect(result?.replace(/\s+/g, ' ')).toContain(
      'export const save = ({method:"POST",path:"/api/things/",response:{schema:()=>import("./module.ts?contract").then((m)=>m.save.response.schema)}});',
    );
    expect(result).not.toContain('__PURE__');
    // Nothing left uses the schemas' module (nor `endpoint`): the page does not import it.
    expect(result).not.toMatch(/\bimport\b(?!\()/);
  });

  it("leave out a path's parameters built by a pure call, and the import only they used", async () => {
    const result = await lean(
      `import { z } from 'zod/mini';\n${HEAD}import { Id } from './ids';
      const Params = /*#__PURE__*/ z.object({ id: Id });
      const tags = ['things'];
      export const read = /*#__PURE__*/ endpoint({ method: 'GET', path: '/api/things/:id/', tags, params: Params, response: { status: 200, schema: Answer } });`,
    );
    expect(result).not.toMatch(/Params|zod|'\.\/ids'|'\.\/schemas'/);
    expect(result).toContain('m.read.response.schema');
  });

  it('keep a page or a redirect as its method and path alone', async () => {
    const result = await lean(
      `${HEAD}export const page = endpoint({ method: 'GET', path: '/page', summary: 'A page', tags: [], response: { status: 200, type: 'text/html' }, errors: [], access: 'public' });`,
    );
    expect(result).toContain('({method:"GET",path:"/page"})');
  });

  it('make a variant of another entry a call marked pure', async () => {
    const result = await lean(
      `${HEAD}export const base = endpoint({ method: 'GET', path: '/a', summary: 'A', tags: [], response: { status: 200, schema: Answer }, errors: [], access: 'public' });
      export const variant = endpoint({ ...base, path: '/a/' });`,
    );
    expect(result).toContain('/* @__PURE__ */ Object.assign({},base,{path:"/a/"})');
  });

  it('stop the build at a shape they do not know, rather than keep it', async () => {
    await expect(
      lean(
        `${HEAD}export const odd = endpoint({ method: 'GET', path: '/a', owner: 'me', response: { status: 200, schema: Answer } });`,
      ),
    ).rejects.toThrow(/unknown owner/);
    await expect(
      lean(`${HEAD}const entry = { method: 'GET', path: '/a' };\nexport const odd = endpoint(entry);`),
    ).rejects.toThrow(/cannot read: Identifier/);
    await expect(lean(`${HEAD}export const declare = endpoint;`)).rejects.toThrow(/other than called/);
    await expect(
      lean(
        `${HEAD}const hidden = endpoint({ method: 'GET', path: '/a', response: { status: 200, schema: Answer } });`,
      ),
    ).rejects.toThrow(/not an exported constant/);
    await expect(
      lean(`${HEAD}const key = 'path';\nexport const odd = endpoint({ method: 'GET', [key]: '/a' });`),
    ).rejects.toThrow(/cannot read/);
    await expect(
      lean(
        `${HEAD}export const odd = endpoint({ method: 'GET', path: '/a', response: { status: 200, schema: Answer, cached: true } });`,
      ),
    ).rejects.toThrow(/unknown cached/);
  });
});
