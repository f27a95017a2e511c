// The front door of account: all that the rest of the server may use of it (test/architecture).
export { accountRoutes } from './routes';
