/**
 * The process suites spawn the server compiled once for the run (test/helpers/server-build.ts),
 * and never a build older than the sources.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentServerBuild, SERVER_BUILD_VARIABLE, SERVER_BUILT_AT_VARIABLE } from '../helpers/server-build';

describe("the process suites' build of the server", () => {
  const saved = { folder: process.env[SERVER_BUILD_VARIABLE], at: process.env[SERVER_BUILT_AT_VARIABLE] };
  afterEach(() => {
    for (const [name, value] of [
      [SERVER_BUILD_VARIABLE, saved.folder],
      [SERVER_BUILT_AT_VARIABLE, saved.at],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('is made for this run, and spawns use it', () => {
    const main = currentServerBuild();
    expect(main).toBe(path.join(saved.folder ?? '', 'main.js'));
    expect(fs.existsSync(main ?? '')).toBe(true);
  });

  it('is not used once a source file is newer than it: the sources are, through the loader', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'server-build-'));
    try {
      fs.writeFileSync(path.join(folder, 'main.js'), '');
      process.env[SERVER_BUILD_VARIABLE] = folder;
      process.env[SERVER_BUILT_AT_VARIABLE] = String(Date.now() + 60_000);
      expect(currentServerBuild()).toBe(path.join(folder, 'main.js'));
      // Built before the sources were last changed.
      process.env[SERVER_BUILT_AT_VARIABLE] = '0';
      expect(currentServerBuild()).toBeNull();
      delete process.env[SERVER_BUILD_VARIABLE];
      expect(currentServerBuild()).toBeNull();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
