// The front door of sso: all that the rest of the server may use of it (test/architecture).
export { allowSsoLink } from './link-grants';
export { forgetIdentitiesOf, linkedUserIds, linkGrantsOf, savePassedTest, ssoSettingsRow } from './queries';
export { ssoRoutes } from './routes';
export { passwordRefusalForAddress } from './settings';
export { NO_PASSWORD } from './sign-in';
