/** The validated screening instruments (design section 13), for the survey screen and the server. */

export { CLINICALLY_SIGNIFICANT_CHANGE, type ScoreChange, scoreChange } from './change';
export {
  type AnswerProblem,
  allItems,
  describeAnswerProblems,
  findAnswerProblems,
  itemsToAsk,
} from './conditional';
export {
  type CombinedFollowUp,
  combinedFollowUp,
  combineFollowUps,
  type FollowUp,
  followUpFor,
  INSTRUMENT_THRESHOLDS,
  SCREENING_DISCLAIMER,
} from './follow-up';
export { INSTRUMENTS, instrumentForm } from './registry';
export { checkAndScore, IncompleteAnswersError, type InstrumentResult, scoreInstrument } from './score';
export {
  DECLINED,
  INSTRUMENT_IDS,
  type Instrument,
  type InstrumentAnswers,
  type InstrumentForm,
  type InstrumentId,
  type InstrumentItem,
  type ItemAnswer,
} from './types';
