import { ASQ } from './asq';
import { GAD2 } from './gad2';
import { GAD7 } from './gad7';
import { K10 } from './k10';
import { PHQ2 } from './phq2';
import { PHQ9 } from './phq9';
import type { Instrument, InstrumentId } from './types';
import { WHO5 } from './who5';

export const INSTRUMENTS: Readonly<Record<InstrumentId, Instrument>> = {
  phq9: PHQ9,
  phq2: PHQ2,
  gad7: GAD7,
  gad2: GAD2,
  asq: ASQ,
  k10: K10,
  who5: WHO5,
};

/** Every item an instrument can ask, in form order: first items, then the conditional ones. */
export function allItems(instrument: Instrument) {
  return [...instrument.items, ...instrument.conditionalItems];
}
