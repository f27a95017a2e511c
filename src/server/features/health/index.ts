// The front door of health: all that the rest of the server may use of it (test/architecture).
export { healthRoutes } from './routes';
export { Readiness } from './service';
