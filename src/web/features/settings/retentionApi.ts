import { SuccessMessage } from '../../../common/schemas/common';
import {
  LegalHoldResponse,
  LegalHoldsResponse,
  type PlaceLegalHold,
  type RetentionSettings,
  RetentionSettingsResponse,
} from '../../../common/schemas/retention';
import { api } from '../../api';

export const RETENTION_QUERY_KEY = ['institution-retention'] as const;
export const LEGAL_HOLDS_QUERY_KEY = ['legal-holds'] as const;

export function fetchRetention() {
  return api.get('/api/institution/retention/', RetentionSettingsResponse);
}

export function saveRetention(settings: RetentionSettings) {
  return api.put('/api/institution/retention/', RetentionSettingsResponse, settings);
}

export function fetchLegalHolds() {
  return api.get('/api/legal-holds/', LegalHoldsResponse);
}

export function placeLegalHold(hold: PlaceLegalHold) {
  return api.post('/api/legal-holds/', LegalHoldResponse, hold);
}

export function liftLegalHold(id: number, reason: string) {
  return api.post(`/api/legal-holds/${id}/lift/`, SuccessMessage, { reason });
}
