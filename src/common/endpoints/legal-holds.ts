import { SuccessMessage } from '../schemas/common';
import { LegalHoldResponse, LegalHoldsResponse, LiftLegalHold, PlaceLegalHold } from '../schemas/retention';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

const tags = ['institution'];

export const listLegalHolds = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/legal-holds/',
  summary: 'Students under a legal hold, whose data no purge or erasure touches',
  tags,
  response: { status: 200, schema: LegalHoldsResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});

export const placeLegalHold = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/legal-holds/',
  summary: "Place a legal hold on a student's data, with the reason",
  tags,
  body: PlaceLegalHold,
  response: { status: 200, schema: LegalHoldResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});

export const liftLegalHold = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/legal-holds/:id/lift/',
  summary: 'Lift a legal hold, with the reason; the retention periods apply again',
  tags,
  params: IdParams,
  body: LiftLegalHold,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});
