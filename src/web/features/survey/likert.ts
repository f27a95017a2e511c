import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { AnswerChoices, QuestionCategory } from '../../../common/schemas/questions';
import type { LikertValue } from '../../../common/schemas/templates';
import { i18n } from '../../app/i18n';
import type { Choice } from '../../ui/Field';

/**
 * The survey's own words for each Likert value, in the page's language: the same English as
 * LIKERT_LABELS (common/schemas/likert-labels.ts), which the server keeps.
 */
export const LIKERT_LABEL_MESSAGES: Record<LikertValue, MessageDescriptor> = {
  '1': msg`Excellent`,
  '2': msg`Good`,
  '3': msg`Neutral`,
  '4': msg`Poor`,
  '5': msg`Very Poor`,
};

/** A choice whose label is read in the active language whenever it is shown. */
function scaleChoice(value: LikertValue, emoji: string): Choice {
  return {
    value,
    emoji,
    get label() {
      return i18n._(LIKERT_LABEL_MESSAGES[value]);
    },
  };
}

/**
 * The wellness scale of spec section 2: 5 is the poorest answer, 1 the best, each shown with a
 * fixed emoji. A question's custom answer text replaces only the label.
 */
export const LIKERT_CHOICES: readonly Choice[] = [
  scaleChoice('5', '😞'),
  scaleChoice('4', '😟'),
  scaleChoice('3', '😐'),
  scaleChoice('2', '😊'),
  scaleChoice('1', '😄'),
];

/**
 * The five options of one question: its custom label for a value where it has one, else the
 * default. A safety question (self-harm) carries no mood emojis: a laughing face beside
 * "Never" would trivialise it, as the demo survey already knows.
 */
export function likertChoices(custom: AnswerChoices | null, category?: QuestionCategory): readonly Choice[] {
  const base =
    category === 'safety'
      ? LIKERT_CHOICES.map(({ value, label }) => ({ value, label }))
      : LIKERT_CHOICES.map((choice) => ({ ...choice }));
  if (!custom) return base;
  return base.map((choice) => {
    const label = custom[choice.value as keyof AnswerChoices]?.trim();
    return label ? { ...choice, label } : choice;
  });
}
