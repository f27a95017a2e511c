// The front door of cases: all that the rest of the server may use of it (test/architecture).

export type { CaseLink } from './dashboard';
export { caseLinksOf, followUpFigures } from './dashboard';
export type { CaseMailContext } from './mails';
export type { CaseOpener, ContactAsked } from './open';
export { appCaseOpener, caseOpener, contactCase, verifyCasesOf } from './open';
export { caseRoutes } from './routes';
export { recordCaseEvent } from './trail';
export { unprovenClientKey } from './unproven';
