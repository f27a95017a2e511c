// The front door of passkeys: all that the rest of the server may use of it (test/architecture).
export { passkeyRoutes } from './routes';
export { PASSKEY_NOT_FOUND } from './service';
