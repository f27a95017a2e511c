import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../db';
import { makePrivateDir } from './private-files';
import { resolveSecret } from './secrets';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('data files', () => {
  let root: string;
  let previousUmask: number;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-modes-'));
    // The usual umask, under which files were created world-readable.
    previousUmask = process.umask(0o022);
  });

  afterEach(() => {
    process.umask(previousUmask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('are created owner-only: the folder 0700, the database, WAL, shared memory and secret 0600', async () => {
    const dataDir = path.join(root, 'data');
    const file = path.join(dataDir, 'wellness.sqlite');
    const db = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(db);
    resolveSecret(null, dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const name of ['wellness.sqlite', 'wellness.sqlite-wal', 'wellness.sqlite-shm', 'secret.key'])
        expect(mode(path.join(dataDir, name)), name).toBe(0o600);
    } finally {
      await db.close();
    }
  });

  it('left readable by an older version are tightened at start', async () => {
    const dataDir = path.join(root, 'data');
    const file = path.join(dataDir, 'wellness.sqlite');
    const first = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(first);
    resolveSecret(null, dataDir);
    // A second connection keeps the WAL and -shm files in place while the modes are loosened.
    const holder = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(holder);
    await first.close();
    fs.chmodSync(dataDir, 0o755);
    const names = ['wellness.sqlite', 'wellness.sqlite-wal', 'wellness.sqlite-shm', 'secret.key'];
    for (const name of names) fs.chmodSync(path.join(dataDir, name), 0o644);

    makePrivateDir(dataDir);
    const reopened = openDatabase({ kind: 'sqlite', file });
    resolveSecret(null, dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const name of names) expect(mode(path.join(dataDir, name)), name).toBe(0o600);
    } finally {
      await reopened.close();
      await holder.close();
    }
  });
});
