import {
  deleteInstitutionSso,
  getInstitutionSso,
  postInstitutionSsoTest,
  putInstitutionSso,
} from '../../../common/endpoints/sso';
import type { SsoConnectionTestRequest, SsoSettingsRequest } from '../../../common/schemas/sso';
import { api } from '../../api';

export const SSO_QUERY_KEY = ['institution-sso'] as const;

export function fetchSso() {
  return api.call(getInstitutionSso);
}

export function saveSso(settings: SsoSettingsRequest) {
  return api.call(putInstitutionSso, { body: settings });
}

export function disableSso() {
  return api.call(deleteInstitutionSso);
}

export function testSsoConnection(provider: SsoConnectionTestRequest) {
  return api.call(postInstitutionSsoTest, { body: provider });
}
