import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import * as passkeys from '../../../common/endpoints/passkeys';
import * as secondFactor from '../../../common/endpoints/second-factor';
import type { PasskeyAuthentication } from '../../../common/schemas/passkeys';
import { api } from '../../api';

export const PASSKEYS_QUERY_KEY = ['own-passkeys'] as const;

export function fetchPasskeys() {
  return api.call(passkeys.listPasskeys);
}

export function removePasskey(id: number) {
  return api.call(passkeys.removePasskey, { params: { id } });
}

export function replaceRecoveryCodes() {
  return api.call(secondFactor.regenerateRecoveryCodes);
}

/** Proves the second factor again with an app code or a recovery code. */
export function stepUpWithCode(code: string) {
  return api.call(secondFactor.stepUpWithSecondFactor, { body: { code } });
}

/** Proves the second factor again with one of the account's passkeys. */
export async function stepUpWithPasskey() {
  const { options } = await api.call(passkeys.startPasskeyStepUp);
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return api.call(passkeys.stepUpWithPasskey, {
    body: { credential: credential as PasskeyAuthentication['credential'] },
  });
}
