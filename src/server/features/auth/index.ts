// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { forgetDeadSession, issueCsrfToken, setDisplayCookies, setSessionCookie } from './cookies';
export { deletePendingRegistrationsOf, findUserByEmail, findUserById } from './queries';
export { authRoutes } from './routes';
export {
  ACCOUNT_EXISTS_MAILS_PER_DAY,
  completePendingRegistration,
  createStaffAccount,
  INVALID_LOGIN,
  insertStudentAccount,
  toCurrentUser,
} from './service';
export { auditSignIn } from './sign-in-audit';
