// The front door of drafts: all that the rest of the server may use of it (test/architecture).
export { deleteDraft } from './queries';
export { draftRoutes } from './routes';
