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

export function verifySecondFactor(code: string) {
  return api.post('/api/second-factor/verify/', SecondFactorVerifyResponse, { code });
}

export const SECOND_FACTOR_QUERY_KEY = ['own-second-factor'] as const;

export function fetchSecondFactorStatus() {
  return api.get('/api/second-factor/', SecondFactorStatus);
}
