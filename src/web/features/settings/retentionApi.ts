import * as legalHolds from '../../../common/endpoints/legal-holds';
import * as retention from '../../../common/endpoints/retention';
import type { PlaceLegalHold, RetentionSettings } from '../../../common/schemas/retention';
import { api } from '../../api';

export const RETENTION_QUERY_KEY = ['institution-retention'] as const;
export const LEGAL_HOLDS_QUERY_KEY = ['legal-holds'] as const;

export function fetchRetention() {
  return api.call(retention.getRetention);
}

export function saveRetention(settings: RetentionSettings) {
  return api.call(retention.updateRetention, { body: settings });
}

export function fetchLegalHolds() {
  return api.call(legalHolds.listLegalHolds);
}

export function placeLegalHold(hold: PlaceLegalHold) {
  return api.call(legalHolds.placeLegalHold, { body: hold });
}

export function liftLegalHold(id: number, reason: string) {
  return api.call(legalHolds.liftLegalHold, { params: { id }, body: { reason } });
}
