// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).

export type { CaseLink } from './dashboard';
export { caseLinksOf, followUpFigures } from './dashboard';
export type { CaseMailContext } from './mails';
export type { CaseOpener, ContactAsked } from './open';
export { appCaseOpener, caseOpener, contactCase, verifyCasesOfProven } from './open';
export { caseRoutes } from './routes';
export { recordCaseEvent } from './trail';
