// The front door of second-factor: all that the rest of the server may use of it (test/architecture).
export { recordSignInChange } from './factor-changes';
export { issueRecoveryCodes } from './issue-recovery-codes';
export { deleteSecondFactors, replaceRecoveryCodes } from './queries';
export { secondFactorRoutes } from './routes';
export { resetSecondFactorByOperator } from './service';
