import {
  CurrentUser,
  InstitutionList,
  type LoginRequest,
  LoginResponse,
  type RegisterRequest,
} from '../../../common/schemas/auth';
import { SuccessMessage } from '../../../common/schemas/common';
import { api, hasErrorCode } from '../../api';

/** The signed-in user, or null when nobody is signed in. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get('/api/user/', CurrentUser);
  } catch (error) {
    if (hasErrorCode(error, 'UNAUTHENTICATED')) return null;
    throw error;
  }
}

export function login(credentials: LoginRequest) {
  return api.post('/api/login/', LoginResponse, credentials);
}

export function logout() {
  return api.post('/api/logout/', SuccessMessage);
}

export function register(request: RegisterRequest) {
  return api.post('/api/register/', SuccessMessage, request);
}

export function fetchInstitutions() {
  return api.get('/api/institutions/', InstitutionList);
}
