import { describe, expect, it } from 'vitest';
import { VERIFICATION_CODE_LENGTH, VerificationCode, VerifyCheckRequest } from './verify';

describe('a verification code', () => {
  it('is the mail’s digits, with spaces around them forgiven', () => {
    expect(VERIFICATION_CODE_LENGTH).toBe(6);
    expect(VerificationCode.parse('042117')).toBe('042117');
    expect(VerificationCode.parse(' 042117\n')).toBe('042117');
  });

  it('refuses a code of another length or with other characters, saying what a code is', () => {
    for (const code of ['04211', '0421170', '04a117', '042 117', '']) {
      const result = VerificationCode.safeParse(code);
      expect(result.success, code).toBe(false);
      expect(result.error?.issues[0]?.message, code).toBe('The code is the 6 digits from the mail');
    }
    expect(VerificationCode.safeParse(42117).error?.issues[0]?.message).toBe('Enter the code from the mail');
  });

  it('is the code of a check request', () => {
    expect(VerifyCheckRequest.parse({ email: 'sam@uni.edu', code: ' 123456 ' })).toEqual({
      email: 'sam@uni.edu',
      code: '123456',
      proof_tokens: [],
    });
  });
});
