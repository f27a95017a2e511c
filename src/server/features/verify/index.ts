// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).

export type { CodeContext } from './codes';
export { CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR, isProvenBy, issueCode, PROOF_LIFETIME } from './codes';
export { institutionOfDomain, recordProof } from './queries';
export { verifyRoutes } from './routes';
export type { AddressProven } from './service';
export { CODE_SENT } from './service';
