import { ErasurePreviewResponse, ErasureRequest, ErasureResponse } from '../schemas/records';
import { endpoint } from './endpoint';

const tags = ['institution'];

export const previewErasure = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/erasures/preview/',
  summary: "What erasing a student's data would remove, by kind, and whether a hold or request stops it",
  tags,
  body: ErasureRequest,
  response: { status: 200, schema: ErasurePreviewResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});

export const eraseStudent = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/erasures/',
  summary: "Erase a student's identifiable data; refused (409) under a legal hold or an open records request",
  tags,
  body: ErasureRequest,
  response: { status: 200, schema: ErasureResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});
