import {
  VerifyCheckResponse,
  type VerifyStartRequest,
  VerifyStartResponse,
} from '../../../common/schemas/verify';
import { api } from '../../api';

/** Design section 12: a one-time code to the address, and the check that proves it for this browser. */

export function startVerification(request: VerifyStartRequest) {
  return api.post('/api/verify/start/', VerifyStartResponse, request);
}

export function checkVerification(email: string, code: string) {
  return api.post('/api/verify/check/', VerifyCheckResponse, { email, code });
}
