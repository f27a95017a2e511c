import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { SuccessMessage } from '../../../common/schemas/common';
import { PasskeyList, PasskeyOptions } from '../../../common/schemas/passkeys';
import { RecoveryCodesResponse } from '../../../common/schemas/second-factor';
import { api } from '../../api';

export const PASSKEYS_QUERY_KEY = ['own-passkeys'] as const;

export function fetchPasskeys() {
  return api.get('/api/passkeys/', PasskeyList);
}

export function removePasskey(id: number) {
  return api.delete(`/api/passkeys/${id}/`, SuccessMessage);
}

export function replaceRecoveryCodes() {
  return api.post('/api/second-factor/recovery-codes/', RecoveryCodesResponse);
}

/** Proves the second factor again with an app code or a recovery code. */
export function stepUpWithCode(code: string) {
  return api.post('/api/second-factor/step-up/', SuccessMessage, { code });
}

/** Proves the second factor again with one of the account's passkeys. */
export async function stepUpWithPasskey() {
  const { options } = await api.post('/api/passkeys/step-up/options/', PasskeyOptions);
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return api.post('/api/passkeys/step-up/', SuccessMessage, { credential });
}
