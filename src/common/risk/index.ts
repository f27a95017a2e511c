/** What the server's survey path takes from the screening; the web app imports single modules. */
export { alwaysOpenLinesFor, crisisHelpFor, crisisHelpInLanguage } from './crisis-lines';
export type { CrisisHelp } from './crisis-resources';
export { LEXICON_VERSION } from './scan-text';
export { type RiskResult, screenSubmissionSafely } from './screen';
