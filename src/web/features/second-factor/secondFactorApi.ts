import {
  getSecondFactor,
  postSecondFactorTotpConfirm,
  postSecondFactorTotpReplacement,
  postSecondFactorTotpReplacementConfirm,
  postSecondFactorTotpSetup,
  postSecondFactorVerify,
} from '../../../common/endpoints/second-factor';
import { api } from '../../api';

export function startAppSetup() {
  return api.call(postSecondFactorTotpSetup);
}

export function confirmAppSetup(code: string) {
  return api.call(postSecondFactorTotpConfirm, { body: { code } });
}

/** A new app for the account; the one set up keeps working until the new one is confirmed. */
export function startAppReplacement() {
  return api.call(postSecondFactorTotpReplacement);
}

export function confirmAppReplacement(code: string) {
  return api.call(postSecondFactorTotpReplacementConfirm, { body: { code } });
}

export function verifySecondFactor(code: string) {
  return api.call(postSecondFactorVerify, { body: { code } });
}

export const SECOND_FACTOR_QUERY_KEY = ['own-second-factor'] as const;

export function fetchSecondFactorStatus() {
  return api.call(getSecondFactor);
}
