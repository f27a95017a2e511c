// The front door of password-reset: all that the rest of the server may use of it (test/architecture).
export { passwordResetRoutes } from './routes';
