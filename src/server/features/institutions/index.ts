// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { readOwnCrisisResources } from './crisis-resources';
export { institutionEmailRule, requireInstitutionEmail } from './email';
export { findInstitutionIdByName, institutionDomains, listInstitutions } from './queries';
export { institutionRoutes } from './routes';
export { createInstitution } from './service';
export type { FollowUpSettings } from './settings';
export { institutionTimeZone, readFollowUpSettings, updateInstitutionSettings } from './settings';
