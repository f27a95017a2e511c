import { getLegalHolds, postLegalHolds, postLegalHoldsLift } from '../../../common/endpoints/legal-holds';
import { getInstitutionRetention, putInstitutionRetention } from '../../../common/endpoints/retention';
import type { PlaceLegalHold, RetentionSettings } from '../../../common/schemas/retention';
import { api } from '../../api';

export const RETENTION_QUERY_KEY = ['institution-retention'] as const;
export const LEGAL_HOLDS_QUERY_KEY = ['legal-holds'] as const;

export function fetchRetention() {
  return api.call(getInstitutionRetention);
}

export function saveRetention(settings: RetentionSettings) {
  return api.call(putInstitutionRetention, { body: settings });
}

export function fetchLegalHolds() {
  return api.call(getLegalHolds);
}

export function placeLegalHold(hold: PlaceLegalHold) {
  return api.call(postLegalHolds, { body: hold });
}

export function liftLegalHold(id: number, reason: string) {
  return api.call(postLegalHoldsLift, { params: { id }, body: { reason } });
}
