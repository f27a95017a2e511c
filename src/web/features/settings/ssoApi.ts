import * as endpoints from '../../../common/endpoints/sso';
import type { SsoConnectionTestRequest, SsoSettingsRequest } from '../../../common/schemas/sso';
import { api } from '../../api';

export const SSO_QUERY_KEY = ['institution-sso'] as const;

export function fetchSso() {
  return api.call(endpoints.getSsoSettings);
}

export function saveSso(settings: SsoSettingsRequest) {
  return api.call(endpoints.updateSsoSettings, { body: settings });
}

export function disableSso() {
  return api.call(endpoints.disableSso);
}

export function testSsoConnection(provider: SsoConnectionTestRequest) {
  return api.call(endpoints.testSsoConnection, { body: provider });
}
