import { checkVerificationCode, sendVerificationCode } from '../../../common/endpoints/verify';
import { PROOF_TOKENS_MAX } from '../../../common/schemas/values';
import type { VerifyStartRequest } from '../../../common/schemas/verify';
import { api } from '../../api';

/** Design section 12: a one-time code to the address, and the check that proves it for this browser. */

export function startVerification(request: VerifyStartRequest) {
  return api.call(sendVerificationCode, { body: request });
}

/**
 * The secrets of the survey answers this tab sent in an address's name before proving it. They
 * live in this tab's sessionStorage, which no cookie and no other tab can fill: the code's check
 * sends them, and only the answers they name count as the student's once she proves the address.
 */
const proofTokensKey = (email: string) => `wellspring.proof-tokens.${email.toLowerCase()}`;

function readProofTokens(email: string): string[] {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(proofTokensKey(email)) ?? '[]');
    return Array.isArray(value) ? value.filter((token): token is string => typeof token === 'string') : [];
  } catch {
    return [];
  }
}

export function keepProofToken(email: string, token: string) {
  try {
    const tokens = [...readProofTokens(email), token].slice(-PROOF_TOKENS_MAX);
    window.sessionStorage.setItem(proofTokensKey(email), JSON.stringify(tokens));
  } catch (error) {
    console.error('Could not keep the answer’s proof token', error);
  }
}

export async function checkVerification(email: string, code: string) {
  const response = await api.call(checkVerificationCode, {
    body: {
      email,
      code,
      proof_tokens: readProofTokens(email),
    },
  });
  try {
    window.sessionStorage.removeItem(proofTokensKey(email));
  } catch {
    // Nothing kept: nothing to forget.
  }
  return response;
}
