// The front door of verify: all that the rest of the server may use of it (test/architecture).

export type { CodeContext } from './codes';
export { CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR, isProvenBy, issueCode, PROOF_LIFETIME } from './codes';
export { institutionOfDomain, recordProof } from './queries';
export { verifyRoutes } from './routes';
export { CODE_SENT } from './service';
