// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { createDefaultTemplate, DEFAULT_QUESTIONS } from './default-template';
export { findTemplate, institutionOfLink, listQuestions, templateTranslationsIn } from './queries';
export { templateRoutes } from './routes';
export {
  addInstrumentBlock,
  addQuestion,
  answerLabelOf,
  createTemplate,
  instrumentOf,
  parseAnswerChoices,
} from './service';
