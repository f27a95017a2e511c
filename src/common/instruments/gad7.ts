import { PHQ_FREQUENCY_SCALE, PHQ_LICENCE, PHQ_SOURCE_URL } from './phq-family';
import type { Instrument, InstrumentItem } from './types';

/*
 * GAD-7. Source: Pfizer Inc., GAD-7 form, https://www.phqscreeners.com/ (cross-checked copies in
 * phq-family.ts). Bands: "Scores of 5, 10, and 15 represent cut points for mild, moderate, and
 * severe anxiety" with "0–4: minimal anxiety" (Pfizer scoring note, "Scoring GAD-7 Anxiety
 * Severity").
 *
 * SOURCE NOTES
 * - Item 1: copies differ on the serial comma ("nervous, anxious, or on edge" vs "nervous,
 *   anxious or on edge"). The typed copy of the Pfizer form (touringmanual.com) and the copy
 *   citing the 2006 paper (docest.com) have it; one scanned Pfizer form (scribd.com 724517444)
 *   reads without it. Kept with it; to be confirmed against the phqscreeners.com PDF.
 * - Item 5: some copies write "it's"; the Pfizer form has "it is", kept here.
 * - Item 7: copies differ on the comma after "afraid"; the Pfizer form has "Feeling afraid as
 *   if something awful might happen" without it in the scanned copy checked, and with it in
 *   others. Kept without, as in the scanned form; to be confirmed against the phqscreeners.com PDF.
 */

export const GAD7_ITEMS: readonly InstrumentItem[] = [
  { id: 'gad7_1', number: 1, text: 'Feeling nervous, anxious, or on edge' },
  { id: 'gad7_2', number: 2, text: 'Not being able to stop or control worrying' },
  { id: 'gad7_3', number: 3, text: 'Worrying too much about different things' },
  { id: 'gad7_4', number: 4, text: 'Trouble relaxing' },
  { id: 'gad7_5', number: 5, text: 'Being so restless that it is hard to sit still' },
  { id: 'gad7_6', number: 6, text: 'Becoming easily annoyed or irritable' },
  { id: 'gad7_7', number: 7, text: 'Feeling afraid as if something awful might happen' },
];

export const GAD7_STEM = 'Over the last 2 weeks, how often have you been bothered by the following problems?';

export const GAD7: Instrument = {
  id: 'gad7',
  name: 'Generalized Anxiety Disorder 7-item (GAD-7)',
  instructions: GAD7_STEM,
  items: GAD7_ITEMS,
  conditionalItems: [],
  askConditionalItemsWhen: null,
  scale: PHQ_FREQUENCY_SCALE,
  total: { min: 0, max: 21 },
  bands: [
    { min: 0, max: 4, label: 'minimal anxiety' },
    { min: 5, max: 9, label: 'mild anxiety' },
    { min: 10, max: 14, label: 'moderate anxiety' },
    { min: 15, max: 21, label: 'severe anxiety' },
  ],
  licence: PHQ_LICENCE,
  citation:
    'Spitzer RL, Kroenke K, Williams JB, Löwe B. A brief measure for assessing generalized anxiety disorder: the GAD-7. Arch Intern Med. 2006;166(10):1092-1097.',
  sourceUrl: PHQ_SOURCE_URL,
};
