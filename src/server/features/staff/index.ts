// The front door of staff: all that the rest of the server may use of it (test/architecture).
export { findMember } from './queries';
export { staffRoutes } from './routes';
export { inviteMember } from './service';
