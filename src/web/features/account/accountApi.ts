import {
  AccountSessionList,
  OtherSessionsEnded,
  type PasswordChangeRequest,
} from '../../../common/schemas/account';
import { api } from '../../api';

export const SESSIONS_QUERY_KEY = ['own-sessions'] as const;

export const changePassword = (request: PasswordChangeRequest) =>
  api.post('/api/account/password/', OtherSessionsEnded, request);

export const fetchSessions = () => api.get('/api/account/sessions/', AccountSessionList);

export const signOutOtherSessions = () =>
  api.post('/api/account/sessions/sign-out-others/', OtherSessionsEnded);
