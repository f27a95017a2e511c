import * as endpoints from '../../../common/endpoints/account';
import type { PasswordChangeRequest } from '../../../common/schemas/account';
import { api } from '../../api';

export const SESSIONS_QUERY_KEY = ['own-sessions'] as const;

export const changePassword = (request: PasswordChangeRequest) =>
  api.call(endpoints.changePassword, { body: request });

export const fetchSessions = () => api.call(endpoints.listSessions);

export const signOutOtherSessions = () => api.call(endpoints.signOutOtherSessions);
