// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export type {
  ProvenSubmission,
  SubmissionStored,
  SubmissionsProven,
} from './events';
export { SubmissionEvents } from './events';
export { checkInstrumentAnswers, totalAndBand } from './instruments';
export { findCurrentTemplate, findTemplateById, UNCONFIRMED_NAME, upsertRespondent } from './queries';
export { surveyRoutes } from './routes';
export type { SurveyTarget } from './service';
export {
  answerLanguages,
  getSurveyOfTemplate,
  promoteOnProof,
  refuseNonStudentRole,
  refuseNonStudents,
  reply,
  STAFF_CANNOT_SUBMIT,
  SURVEY_NOT_FOUND,
  saveScreenedSubmission,
  screenAnonymousAnswers,
  submitSurvey,
  surveyLanguage,
} from './service';
