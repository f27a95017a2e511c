import { INSTRUMENTS } from './registry';
import type { InstrumentId } from './types';

/**
 * The change between two totals of the same instrument that is called clinically significant
 * (design section 13: a PHQ-9 change of 5 or more). Instruments without a published figure here
 * report the change without that judgement.
 */
export const CLINICALLY_SIGNIFICANT_CHANGE: Partial<Record<InstrumentId, number>> = { phq9: 5 };

export interface ScoreChange {
  readonly change: number;
  /** null where no clinically significant change is defined for the instrument. */
  readonly clinicallySignificant: boolean | null;
  readonly description: string;
}

export function scoreChange(instrumentId: InstrumentId, previous: number, current: number): ScoreChange {
  const name = INSTRUMENTS[instrumentId].name.match(/\(([^)]+)\)$/)?.[1] ?? INSTRUMENTS[instrumentId].name;
  const change = current - previous;
  const threshold = CLINICALLY_SIGNIFICANT_CHANGE[instrumentId];
  const clinicallySignificant = threshold === undefined ? null : Math.abs(change) >= threshold;
  const movement =
    change === 0
      ? `${name} unchanged at ${current}`
      : `${name} ${change > 0 ? 'rose' : 'fell'} by ${Math.abs(change)}, from ${previous} to ${current}`;
  const judgement = clinicallySignificant ? ': a clinically significant change' : '';
  return { change, clinicallySignificant, description: `${movement}${judgement}` };
}
