import { describe, expect, it } from 'vitest';
import { seal, sealingKey, unseal } from './sealed';

const SECRET = 'a-server-secret-that-is-long-enough-0123456789';

describe('sealed secrets', () => {
  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const key = sealingKey(SECRET, 'totp');
    const sealed = seal(key, 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(unseal(key, sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('seals the same value differently each time', () => {
    const key = sealingKey(SECRET, 'totp');
    expect(seal(key, 'same')).not.toBe(seal(key, 'same'));
  });

  it('refuses another purpose, another server secret and altered text', () => {
    const sealed = seal(sealingKey(SECRET, 'totp'), 'JBSWY3DPEHPK3PXP');
    expect(unseal(sealingKey(SECRET, 'oidc'), sealed)).toBeNull();
    expect(unseal(sealingKey(`${SECRET}x`, 'totp'), sealed)).toBeNull();
    const parts = sealed.split('.');
    const body = parts[3] ?? '';
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(unseal(sealingKey(SECRET, 'totp'), [parts[0], parts[1], parts[2], flipped].join('.'))).toBeNull();
    expect(unseal(sealingKey(SECRET, 'totp'), 'not sealed')).toBeNull();
  });
});
