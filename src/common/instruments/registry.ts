import { ASQ } from './asq';
import { GAD2 } from './gad2';
import { GAD7 } from './gad7';
import { K10 } from './k10';
import { PHQ2 } from './phq2';
import { PHQ9 } from './phq9';
import type { Instrument, InstrumentForm, InstrumentId } from './types';
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

/** An instrument's form as a survey carries it to the respondent: its words, none of its scoring. */
export function instrumentForm(id: InstrumentId): InstrumentForm {
  const { name, instructions, items, conditionalItems, askConditionalItemsWhen, scale, licence } =
    INSTRUMENTS[id];
  return { name, instructions, items, conditionalItems, askConditionalItemsWhen, scale, licence };
}
