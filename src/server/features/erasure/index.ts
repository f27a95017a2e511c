// The front door of erasure: all that the rest of the server may use of it (test/architecture).
export { erasureRoutes } from './routes';
