import { LIKERT_LABELS } from '../../../common/schemas/likert-labels';
import type { AnswerChoices, QuestionCategory } from '../../../common/schemas/questions';
import type { Choice } from '../../ui/Field';

/**
 * The wellness scale of spec section 2: 5 is the poorest answer, 1 the best, each shown with a
 * fixed emoji. A question's custom answer text replaces only the label.
 */
export const LIKERT_CHOICES: readonly Choice[] = [
  { value: '5', emoji: '😞', label: LIKERT_LABELS['5'] },
  { value: '4', emoji: '😟', label: LIKERT_LABELS['4'] },
  { value: '3', emoji: '😐', label: LIKERT_LABELS['3'] },
  { value: '2', emoji: '😊', label: LIKERT_LABELS['2'] },
  { value: '1', emoji: '😄', label: LIKERT_LABELS['1'] },
];

/**
 * The five options of one question: its custom label for a value where it has one, else the
 * default. A safety question (self-harm) carries no mood emojis: a laughing face beside
 * "Never" would trivialise it, as the demo survey already knows.
 */
export function likertChoices(custom: AnswerChoices | null, category?: QuestionCategory): readonly Choice[] {
  const base =
    category === 'safety' ? LIKERT_CHOICES.map(({ value, label }) => ({ value, label })) : LIKERT_CHOICES;
  if (!custom) return base;
  return base.map((choice) => {
    const label = custom[choice.value as keyof AnswerChoices]?.trim();
    return label ? { ...choice, label } : choice;
  });
}
