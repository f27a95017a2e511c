// The front door of templates: all that the rest of the server may use of it (test/architecture).
export { createDefaultTemplate, DEFAULT_QUESTIONS } from './default-template';
export { findTemplate, listQuestions } from './queries';
export { templateRoutes } from './routes';
export {
  addInstrumentBlock,
  addQuestion,
  answerLabelOf,
  createTemplate,
  instrumentOf,
  parseAnswerChoices,
} from './service';
