// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { simplePage } from './html';
export { isBuiltSubresource, shellRoutes } from './routes';
