import { FREQUENCY_LABELS } from '../../../common/schemas/likert-labels';
import type { LikertValue } from '../../../common/schemas/templates';
import type { Choice } from '../../ui/Field';
import { LIKERT_CHOICES } from '../survey/likert';

interface DemoQuestion {
  id: string;
  text: string;
  choices: readonly Choice[];
}

/** The five questions of the static demo (spec section 2), each scored 1 (best) to 5. */
export const DEMO_QUESTIONS: readonly DemoQuestion[] = [
  {
    id: 'wellbeing',
    text: 'How would you rate your overall well-being over the past two weeks?',
    choices: LIKERT_CHOICES,
  },
  {
    id: 'self_harm',
    text: 'Over the past two weeks, how often have you had thoughts of harming yourself?',
    // A frequency scale: emojis would trivialise this question. Listed from 5 to 1, as the real
    // survey lists every scale.
    choices: LIKERT_CHOICES.map(({ value }) => ({ value, label: FREQUENCY_LABELS[value as LikertValue] })),
  },
  {
    id: 'campus_support',
    text: 'How supported do you feel by your campus community?',
    choices: LIKERT_CHOICES,
  },
  {
    id: 'sleep_quality',
    text: 'How would you rate the quality of your sleep over the past two weeks?',
    choices: LIKERT_CHOICES,
  },
  {
    id: 'seeking_support',
    text: 'How comfortable do you feel reaching out for support when you need it?',
    choices: [
      { value: '5', label: 'Very uncomfortable' },
      { value: '4', label: 'Uncomfortable' },
      { value: '3', label: 'Neutral' },
      { value: '2', label: 'Comfortable' },
      { value: '1', label: 'Very comfortable' },
    ],
  },
];
