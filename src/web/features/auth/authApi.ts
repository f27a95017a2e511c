import { queryOptions } from '@tanstack/react-query';
import {
  CurrentUser,
  InstitutionList,
  type LoginRequest,
  LoginResponse,
  type RegisterRequest,
} from '../../../common/schemas/auth';
import { SuccessMessage } from '../../../common/schemas/common';
import { type Api, api, hasErrorCode } from '../../api';

/** The signed-in user, or null when nobody is signed in. */
export async function fetchCurrentUser(client: Api = api): Promise<CurrentUser | null> {
  try {
    return await client.get('/api/user/', CurrentUser);
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

function fetchInstitutions(client: Api) {
  return client.get('/api/institutions/', InstitutionList);
}

/** The institutions a student may register with. */
export function institutionsQuery(client: Api = api) {
  return queryOptions({
    queryKey: ['institutions'],
    queryFn: () => fetchInstitutions(client),
    staleTime: 5 * 60_000,
  });
}
