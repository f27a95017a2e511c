import * as endpoints from '../../../common/endpoints/second-factor';
import { api } from '../../api';

export function startAppSetup() {
  return api.call(endpoints.startTotpSetup);
}

export function confirmAppSetup(code: string) {
  return api.call(endpoints.confirmTotpSetup, { body: { code } });
}

/** A new app for the account; the one set up keeps working until the new one is confirmed. */
export function startAppReplacement() {
  return api.call(endpoints.startTotpReplacement);
}

export function confirmAppReplacement(code: string) {
  return api.call(endpoints.confirmTotpReplacement, { body: { code } });
}

export function verifySecondFactor(code: string) {
  return api.call(endpoints.verifySecondFactor, { body: { code } });
}

export const SECOND_FACTOR_QUERY_KEY = ['own-second-factor'] as const;

export function fetchSecondFactorStatus() {
  return api.call(endpoints.listSecondFactors);
}
