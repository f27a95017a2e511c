// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { recordSignInChange } from './factor-changes';
export { issueRecoveryCodes } from './issue-recovery-codes';
export { deleteSecondFactors, replaceRecoveryCodes } from './queries';
export { secondFactorRoutes } from './routes';
export { resetSecondFactorByOperator } from './service';
