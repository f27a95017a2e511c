// The front door of surveys: all that the rest of the server may use of it (test/architecture).
export { checkInstrumentAnswers } from './instruments';
export { findCurrentTemplate, findTemplateByHashLink, UNCONFIRMED_NAME, upsertRespondent } from './queries';
export { surveyRoutes } from './routes';
export type { SurveyTarget } from './service';
export {
  getSurveyOfTemplate,
  promoteProvenSubmissions,
  refuseNonStudentRole,
  refuseNonStudents,
  reply,
  STAFF_CANNOT_SUBMIT,
  saveScreenedSubmission,
  screenAnonymousAnswers,
  submitSurvey,
} from './service';
