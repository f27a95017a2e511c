// The front door of shell: all that the rest of the server may use of it (test/architecture).
export { simplePage } from './html';
export { isBuiltSubresource, shellRoutes } from './routes';
