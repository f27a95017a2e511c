import { RetentionSettings, RetentionSettingsResponse } from '../schemas/retention';
import { endpoint } from './endpoint';

const tags = ['institution'];

export const getRetention = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/institution/retention/',
  summary: 'How long answers, closed cases and the audit log are kept, and what the next purge removes',
  tags,
  response: { status: 200, schema: RetentionSettingsResponse },
  errors: [400, 401, 403, 404],
  access: { staff: 'settings' },
});

export const updateRetention = /*#__PURE__*/ endpoint({
  method: 'PUT',
  path: '/api/institution/retention/',
  summary: 'Replace the retention periods, in months; the next purge follows them',
  tags,
  body: RetentionSettings,
  response: { status: 200, schema: RetentionSettingsResponse },
  errors: [400, 401, 403, 404],
  access: { staff: 'settings' },
});
