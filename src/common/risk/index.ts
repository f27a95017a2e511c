export { CrisisResource, DEFAULT_CRISIS_RESOURCES } from './crisis-resources';
export { LEXICON_VERSION, scanText, type TextScan, type TextSeverity } from './scan-text';
export {
  NEEDS_HUMAN_REVIEW,
  type RiskResult,
  type ScreenedAnswer,
  type ScreeningInput,
  screenSubmission,
  screenSubmissionSafely,
} from './screen';
export { isFlagged, RISK_TIERS, type RiskTier } from './tiers';
