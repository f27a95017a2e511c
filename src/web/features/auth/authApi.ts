import { queryOptions } from '@tanstack/react-query';
import * as endpoints from '../../../common/endpoints/auth';
import type { CurrentUser, LoginRequest, RegisterRequest } from '../../../common/schemas/auth';
import { type Api, api, hasErrorCode } from '../../api';

/** The signed-in user, or null when nobody is signed in. */
export async function fetchCurrentUser(client: Api = api): Promise<CurrentUser | null> {
  try {
    return await client.call(endpoints.getCurrentUser);
  } catch (error) {
    if (hasErrorCode(error, 'UNAUTHENTICATED')) return null;
    throw error;
  }
}

export function login(credentials: LoginRequest) {
  return api.call(endpoints.logIn, { body: credentials });
}

export function logout() {
  return api.call(endpoints.logOut);
}

export function register(request: RegisterRequest) {
  return api.call(endpoints.register, { body: request });
}

function fetchInstitutions(client: Api) {
  return client.call(endpoints.listInstitutions);
}

/** The institutions a student may register with. */
export function institutionsQuery(client: Api = api) {
  return queryOptions({
    queryKey: ['institutions'],
    queryFn: () => fetchInstitutions(client),
    staleTime: 5 * 60_000,
  });
}
