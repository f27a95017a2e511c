import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSecret } from './secrets';

describe('resolveSecret', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-secret-')), 'data');
  });

  afterEach(() => {
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  const secretFile = () => path.join(dataDir, 'secret.key');

  it('generates a long secret on first start, readable by the owner only, and reuses it afterwards', () => {
    const first = resolveSecret(null, dataDir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(secretFile()).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretFile(), 'utf8')).toBe(first);
    expect(resolveSecret(null, dataDir)).toBe(first);
  });

  it('generates a different secret for a different installation', () => {
    const other = path.join(path.dirname(dataDir), 'other');
    expect(resolveSecret(null, dataDir)).not.toBe(resolveSecret(null, other));
  });

  it('prefers a configured secret and writes nothing', () => {
    const configured = 'c'.repeat(40);
    expect(resolveSecret(configured, dataDir)).toBe(configured);
    expect(fs.existsSync(secretFile())).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['short', 'too-short\n'],
  ])('refuses an %s secret file with a message that says what to do', (_kind, content) => {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(secretFile(), content, { mode: 0o600 });
    expect(() => resolveSecret(null, dataDir)).toThrow(
      /does not hold a usable secret.*Delete it.*SESSION_SECRET/,
    );
    expect(fs.readFileSync(secretFile(), 'utf8')).toBe(content);
  });
});
