import { LIKERT_SCALE_LEGEND } from '../schemas/templates';

/**
 * Reasons stored before the screening spoke in the survey's own words gave scores without their
 * scale ("Average wellbeing score 4.8 of 5" reads like a good mark where 5 is Very Poor). They are
 * kept as stored and read with their scale and direction; the answers, where shown, tell more.
 */
const EARLIER_WORDINGS: readonly [RegExp, (...parts: string[]) => string][] = [
  [
    /^Average wellbeing score (\d+(?:\.\d+)?) of 5$/,
    (mean) => `Wellbeing answers averaged ${mean} (${LIKERT_SCALE_LEGEND})`,
  ],
  [
    /^(\w+) questions average (\d+(?:\.\d+)?) of 5$/,
    (category, mean) => `${category} answers averaged ${mean} (${LIKERT_SCALE_LEGEND})`,
  ],
  [
    /^Safety question answered (\d) of 5$/,
    (value) =>
      `Answered ${value} to the self-harm question (1 = the first choice, such as Never; higher is more often)`,
  ],
  [
    /^(\d+) safety questions answered 2 or more, highest (\d) of 5$/,
    (count, highest) =>
      `Answered above the first choice to ${count} self-harm questions, highest ${highest} (1 = the first choice, such as Never; higher is more often)`,
  ],
];

/** A stored reason as staff should read it today. */
export function readStoredReason(reason: string): string {
  for (const [wording, reword] of EARLIER_WORDINGS) {
    const parts = wording.exec(reason);
    if (parts) return reword(...parts.slice(1));
  }
  return reason;
}
