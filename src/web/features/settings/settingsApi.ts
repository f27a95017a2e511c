import { getInstitutionSettings, updateInstitutionSettings } from '../../../common/endpoints/institutions';
import type { InstitutionSettings } from '../../../common/schemas/settings';
import { api } from '../../api';

export const SETTINGS_QUERY_KEY = ['institution-settings'] as const;

export function fetchSettings() {
  return api.call(getInstitutionSettings);
}

export function saveSettings(settings: InstitutionSettings) {
  return api.call(updateInstitutionSettings, { body: settings });
}
