import type { InstrumentAnswers, InstrumentItem, ScoreBand } from './types';

/** Adds the answers to the given items; a caller validates completeness first. */
export function sumItems(items: readonly InstrumentItem[], answers: InstrumentAnswers): number {
  let total = 0;
  for (const item of items) {
    const answer = answers[item.id];
    if (typeof answer !== 'number') throw new Error(`Item ${item.id} has no numeric answer`);
    total += answer;
  }
  return total;
}

/** The band holding a total, or null where the publisher names no band for it (WHO-5 >= 13). */
export function bandFor(bands: readonly ScoreBand[], total: number): ScoreBand | null {
  return bands.find((band) => total >= band.min && total <= band.max) ?? null;
}

/** The scale's label for an answer, for reasons staff read ("item 9 answered 'Several days'"). */
export function labelFor(scale: readonly { value: number; label: string }[], value: number): string {
  return scale.find((option) => option.value === value)?.label ?? String(value);
}
