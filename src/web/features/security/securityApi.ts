import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import {
  deletePasskeys,
  getPasskeys,
  postPasskeysStepUp,
  postPasskeysStepUpOptions,
} from '../../../common/endpoints/passkeys';
import {
  postSecondFactorRecoveryCodes,
  postSecondFactorStepUp,
} from '../../../common/endpoints/second-factor';
import type { PasskeyAuthentication } from '../../../common/schemas/passkeys';
import { api } from '../../api';

export const PASSKEYS_QUERY_KEY = ['own-passkeys'] as const;

export function fetchPasskeys() {
  return api.call(getPasskeys);
}

export function removePasskey(id: number) {
  return api.call(deletePasskeys, { params: { id } });
}

export function replaceRecoveryCodes() {
  return api.call(postSecondFactorRecoveryCodes);
}

/** Proves the second factor again with an app code or a recovery code. */
export function stepUpWithCode(code: string) {
  return api.call(postSecondFactorStepUp, { body: { code } });
}

/** Proves the second factor again with one of the account's passkeys. */
export async function stepUpWithPasskey() {
  const { options } = await api.call(postPasskeysStepUpOptions);
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return api.call(postPasskeysStepUp, {
    body: { credential: credential as PasskeyAuthentication['credential'] },
  });
}
