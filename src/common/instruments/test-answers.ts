import type { InstrumentAnswers, InstrumentItem, ResponseOption } from './types';

/**
 * Answers to `items` that add up to `total`, filling items in order up to the scale's top, so
 * tests can reach any band edge. Throws when the total is out of reach.
 */
export function answersSumming(
  items: readonly InstrumentItem[],
  scale: readonly ResponseOption[],
  total: number,
): Record<string, number> {
  const values = scale.map((option) => option.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  let left = total - low * items.length;
  if (left < 0 || left > (high - low) * items.length) throw new Error(`Total ${total} is out of reach`);
  const answers: Record<string, number> = {};
  for (const item of items) {
    const extra = Math.min(high - low, left);
    answers[item.id] = low + extra;
    left -= extra;
  }
  return answers;
}

/** Every item answered with the same value. */
export function answersAll(items: readonly InstrumentItem[], value: number): InstrumentAnswers {
  return Object.fromEntries(items.map((item) => [item.id, value]));
}
