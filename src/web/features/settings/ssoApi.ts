import {
  type SsoConnectionTestRequest,
  SsoConnectionTestResponse,
  type SsoSettingsRequest,
  SsoSettingsResponse,
} from '../../../common/schemas/sso';
import { api } from '../../api';

export const SSO_QUERY_KEY = ['institution-sso'] as const;

export function fetchSso() {
  return api.get('/api/institution/sso/', SsoSettingsResponse);
}

export function saveSso(settings: SsoSettingsRequest) {
  return api.put('/api/institution/sso/', SsoSettingsResponse, settings);
}

export function disableSso() {
  return api.delete('/api/institution/sso/', SsoSettingsResponse);
}

export function testSsoConnection(provider: SsoConnectionTestRequest) {
  return api.post('/api/institution/sso/test/', SsoConnectionTestResponse, provider);
}
