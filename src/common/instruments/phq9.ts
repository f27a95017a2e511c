import { PHQ_FREQUENCY_SCALE, PHQ_LICENCE, PHQ_SOURCE_URL } from './phq-family';
import type { Instrument, InstrumentItem } from './types';

/*
 * PHQ-9. Source: Pfizer Inc., PHQ-9 form, https://www.phqscreeners.com/ (see phq-family.ts for
 * the cross-checked copies). Bands: Kroenke, Spitzer & Williams (2001), "PHQ-9 scores of 5, 10,
 * 15, and 20 represented mild, moderate, moderately severe, and severe depression" (as quoted at
 * https://mindsanctuary.net/surveys/PHQ-9), with 0-4 as minimal (scoring guides such as
 * https://www.calcipedia.org/calculators/phq-9-calculator: "0–4 = minimal"). Band names add
 * "depression" as the Pfizer scoring box does ("Moderately severe depression"), lower-cased to
 * match the paper's wording.
 *
 * SOURCE NOTES
 * - Item 6 and item 8 use an em dash ("yourself — or", "opposite — being") on the Pfizer form;
 *   some copies use a hyphen or a semicolon. The form's em dash is kept.
 * - Item 8 ends its first sentence with a question mark ("could have noticed?") on the Pfizer
 *   form; some copies use a full stop. The form's question mark is kept.
 * - The scoring card in some copies starts the minimal band at 1 ("1-4 Minimal depression");
 *   the 2001 paper and the product use 0-4. A total of 0 is labelled minimal here.
 */

export const PHQ9_ITEMS: readonly InstrumentItem[] = [
  { id: 'phq9_1', number: 1, text: 'Little interest or pleasure in doing things' },
  { id: 'phq9_2', number: 2, text: 'Feeling down, depressed, or hopeless' },
  { id: 'phq9_3', number: 3, text: 'Trouble falling or staying asleep, or sleeping too much' },
  { id: 'phq9_4', number: 4, text: 'Feeling tired or having little energy' },
  { id: 'phq9_5', number: 5, text: 'Poor appetite or overeating' },
  {
    id: 'phq9_6',
    number: 6,
    text: 'Feeling bad about yourself — or that you are a failure or have let yourself or your family down',
  },
  {
    id: 'phq9_7',
    number: 7,
    text: 'Trouble concentrating on things, such as reading the newspaper or watching television',
  },
  {
    id: 'phq9_8',
    number: 8,
    text: 'Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual',
  },
  {
    id: 'phq9_9',
    number: 9,
    text: 'Thoughts that you would be better off dead or of hurting yourself in some way',
  },
];

/** Item 9 asks about self-harm: any answer above "Not at all" asks for a safety assessment. */
export const PHQ9_SELF_HARM_ITEM = 'phq9_9';

export const PHQ9_STEM =
  'Over the last 2 weeks, how often have you been bothered by any of the following problems?';

export const PHQ9: Instrument = {
  id: 'phq9',
  name: 'Patient Health Questionnaire-9 (PHQ-9)',
  instructions: PHQ9_STEM,
  items: PHQ9_ITEMS,
  conditionalItems: [],
  askConditionalItemsWhen: null,
  scale: PHQ_FREQUENCY_SCALE,
  total: { min: 0, max: 27 },
  bands: [
    { min: 0, max: 4, label: 'minimal depression' },
    { min: 5, max: 9, label: 'mild depression' },
    { min: 10, max: 14, label: 'moderate depression' },
    { min: 15, max: 19, label: 'moderately severe depression' },
    { min: 20, max: 27, label: 'severe depression' },
  ],
  licence: PHQ_LICENCE,
  citation:
    'Kroenke K, Spitzer RL, Williams JB. The PHQ-9: validity of a brief depression severity measure. J Gen Intern Med. 2001;16(9):606-613.',
  sourceUrl: PHQ_SOURCE_URL,
};
