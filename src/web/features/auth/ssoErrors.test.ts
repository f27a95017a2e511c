import { describe, expect, it } from 'vitest';
import { SSO_ERROR_MESSAGES, SSO_ERRORS } from '../../../common/schemas/sso';
import { SSO_ERROR_TEXTS } from './ssoErrors';

describe('a failed sign-in through the institution', () => {
  it.each(SSO_ERRORS)('reads in English exactly as the spec words it (%s)', (reason) => {
    expect(SSO_ERROR_TEXTS[reason].message).toBe(SSO_ERROR_MESSAGES[reason]);
  });
});
