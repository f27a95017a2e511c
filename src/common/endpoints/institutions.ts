import { InstitutionSettings, InstitutionSettingsResponse } from '../schemas/settings';
import { endpoint } from './endpoint';

const tags = ['institution'];

export const getInstitutionSettings = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/institution/settings/',
  summary: 'Alert and escalation contacts, acknowledgement deadlines, time zone and crisis resources',
  tags,
  response: { status: 200, schema: InstitutionSettingsResponse },
  errors: [400, 401, 403, 404],
  access: { staff: 'settings' },
});

export const updateInstitutionSettings = /*#__PURE__*/ endpoint({
  method: 'PUT',
  path: '/api/institution/settings/',
  summary: 'Replace the follow-up settings; deadlines apply to cases opened from now on',
  tags,
  body: InstitutionSettings,
  response: { status: 200, schema: InstitutionSettingsResponse },
  errors: [400, 401, 403, 404],
  access: { staff: 'settings' },
});
