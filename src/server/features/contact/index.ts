// The front door of contact: all that the rest of the server may use of it (test/architecture).
export { contactRoutes } from './routes';
