import { SuccessMessage } from '../../../common/schemas/common';
import {
  RecoveryCodesResponse,
  SecondFactorStatus,
  SecondFactorVerifyResponse,
  TotpSetupResponse,
} from '../../../common/schemas/second-factor';
import { api } from '../../api';

export function startAppSetup() {
  return api.post('/api/second-factor/totp/setup/', TotpSetupResponse);
}

export function confirmAppSetup(code: string) {
  return api.post('/api/second-factor/totp/confirm/', RecoveryCodesResponse, { code });
}

/** A new app for the account; the one set up keeps working until the new one is confirmed. */
export function startAppReplacement() {
  return api.post('/api/second-factor/totp/replacement/', TotpSetupResponse);
}

export function confirmAppReplacement(code: string) {
  return api.post('/api/second-factor/totp/replacement/confirm/', SuccessMessage, { code });
}

export function verifySecondFactor(code: string) {
  return api.post('/api/second-factor/verify/', SecondFactorVerifyResponse, { code });
}

export const SECOND_FACTOR_QUERY_KEY = ['own-second-factor'] as const;

export function fetchSecondFactorStatus() {
  return api.get('/api/second-factor/', SecondFactorStatus);
}
