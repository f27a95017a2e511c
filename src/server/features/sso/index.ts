// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { allowSsoLink } from './link-grants';
export { forgetIdentitiesOf, linkedUserIds, linkGrantsOf, savePassedTest, ssoSettingsRow } from './queries';
export { ssoRoutes } from './routes';
export { passwordRefusalForAddress } from './settings';
export { NO_PASSWORD } from './sign-in';
