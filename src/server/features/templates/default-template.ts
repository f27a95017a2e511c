import crypto from 'node:crypto';
import { FREQUENCY_LABELS } from '../../../common/schemas/likert-labels';
import type { Executor } from '../../db/executor';
import type { QuestionsTable } from '../../db/types';
import * as queries from './queries';

type DefaultQuestion = Pick<
  QuestionsTable,
  'question_text' | 'question_type' | 'category' | 'answer_choices'
>;

const FREQUENCY_CHOICES = JSON.stringify(FREQUENCY_LABELS);

const COMFORT_CHOICES = JSON.stringify({
  '1': 'Very comfortable',
  '2': 'Comfortable',
  '3': 'Unsure',
  '4': 'Uncomfortable',
  '5': 'Very uncomfortable',
});

/** Every category once or more, safety included, plus one free-text question (design, section 5). */
export const DEFAULT_QUESTIONS: readonly DefaultQuestion[] = [
  {
    question_text: 'Overall, how would you rate your wellbeing over the past two weeks?',
    question_type: 'likert',
    category: 'general',
    answer_choices: null,
  },
  {
    question_text: 'How would you rate the quality of your sleep recently?',
    question_type: 'likert',
    category: 'sleep',
    answer_choices: null,
  },
  {
    question_text: 'How well are you managing your stress levels?',
    question_type: 'likert',
    category: 'stress',
    answer_choices: null,
  },
  {
    question_text: 'How supported do you feel by your campus community?',
    question_type: 'likert',
    category: 'support',
    answer_choices: null,
  },
  {
    question_text: 'How comfortable would you feel reaching out for support if you needed it?',
    question_type: 'likert',
    category: 'support',
    answer_choices: COMFORT_CHOICES,
  },
  {
    question_text: 'In the past two weeks, how often have you had thoughts of harming yourself?',
    question_type: 'likert',
    category: 'safety',
    answer_choices: FREQUENCY_CHOICES,
  },
  {
    question_text: 'Is there anything else you would like to share with us?',
    question_type: 'text',
    category: 'general',
    answer_choices: null,
  },
];

/** The unguessable token of a template's shared link. */
export function newHashLink(): string {
  return crypto.randomBytes(18).toString('base64url');
}

/** Creates the starter template for a new institution and makes it the active one. */
export async function createDefaultTemplate(
  db: Executor,
  institutionId: number,
  createdAt: number,
): Promise<number> {
  const templateId = await queries.insertTemplate(db, { institutionId, hashLink: newHashLink(), createdAt });
  await queries.insertQuestions(
    db,
    DEFAULT_QUESTIONS.map((question, index) => ({
      ...question,
      template_id: templateId,
      position: index + 1,
      created_at: createdAt,
    })),
  );
  await queries.activateTemplate(db, institutionId, templateId);
  return templateId;
}
