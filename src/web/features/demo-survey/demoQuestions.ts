import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { LikertValue } from '../../../common/schemas/templates';
import { LIKERT_LABEL_MESSAGES } from '../survey/likert';

interface DemoChoice {
  value: LikertValue;
  label: MessageDescriptor;
  emoji?: string;
}

interface DemoQuestion {
  id: string;
  text: MessageDescriptor;
  choices: readonly DemoChoice[];
}

/** The wellness scale with its emojis, listed from 5 to 1 as the real survey lists every scale. */
const LIKERT: readonly DemoChoice[] = [
  { value: '5', emoji: '😞', label: LIKERT_LABEL_MESSAGES['5'] },
  { value: '4', emoji: '😟', label: LIKERT_LABEL_MESSAGES['4'] },
  { value: '3', emoji: '😐', label: LIKERT_LABEL_MESSAGES['3'] },
  { value: '2', emoji: '😊', label: LIKERT_LABEL_MESSAGES['2'] },
  { value: '1', emoji: '😄', label: LIKERT_LABEL_MESSAGES['1'] },
];

/** The five questions of the static demo (spec section 2), each scored 1 (best) to 5. */
export const DEMO_QUESTIONS: readonly DemoQuestion[] = [
  {
    id: 'wellbeing',
    text: msg`How would you rate your overall well-being over the past two weeks?`,
    choices: LIKERT,
  },
  {
    id: 'self_harm',
    text: msg`Over the past two weeks, how often have you had thoughts of harming yourself?`,
    // A frequency scale (FREQUENCY_LABELS, common/schemas/likert-labels.ts): emojis would
    // trivialise this question.
    choices: [
      { value: '5', label: msg`Almost always` },
      { value: '4', label: msg`Often` },
      { value: '3', label: msg`Sometimes` },
      { value: '2', label: msg`Rarely` },
      { value: '1', label: msg`Never` },
    ],
  },
  {
    id: 'campus_support',
    text: msg`How supported do you feel by your campus community?`,
    choices: LIKERT,
  },
  {
    id: 'sleep_quality',
    text: msg`How would you rate the quality of your sleep over the past two weeks?`,
    choices: LIKERT,
  },
  {
    id: 'seeking_support',
    text: msg`How comfortable do you feel reaching out for support when you need it?`,
    choices: [
      { value: '5', label: msg`Very uncomfortable` },
      { value: '4', label: msg`Uncomfortable` },
      { value: '3', label: msg`Neutral` },
      { value: '2', label: msg`Comfortable` },
      { value: '1', label: msg`Very comfortable` },
    ],
  },
];
