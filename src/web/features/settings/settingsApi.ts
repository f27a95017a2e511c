import { type InstitutionSettings, InstitutionSettingsResponse } from '../../../common/schemas/settings';
import { api } from '../../api';

export const SETTINGS_QUERY_KEY = ['institution-settings'] as const;

export function fetchSettings() {
  return api.get('/api/institution/settings/', InstitutionSettingsResponse);
}

export function saveSettings(settings: InstitutionSettings) {
  return api.put('/api/institution/settings/', InstitutionSettingsResponse, settings);
}
