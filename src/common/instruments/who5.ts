import type { Instrument, InstrumentItem, ResponseOption } from './types';

/*
 * WHO-5 Well-Being Index (1998 version). Source: Psychiatric Research Unit, Mental Health Centre
 * North Zealand, Hillerød, Denmark (WHO Collaborating Centre in Mental Health), WHO-5
 * questionnaires, https://www.psykiatri-regionh.dk/who-5/who-5-questionnaires/ (the English
 * form). Cross-checked against https://pawelpaulkula.com/2020/10/20/who-five-well-being-index/
 * (full form with scoring text), https://mysignposts.com.au/portal/who-5/ (stem and scale) and
 * the USDA SNAP-Ed entry (https://snaped.fns.usda.gov/library/materials/who-five-well-being-index-who-5)
 * for the items and the six answers.
 * Scoring, in the form's words: "The raw score is calculated by totalling the figures of the
 * five answers. The raw score ranges from 0 to 25, 0 representing worst possible and 25
 * representing best possible quality of life." The percentage is the raw score multiplied by 4.
 * "A score below 13 indicates poor well-being" (Valant's copy of the scoring note).
 *
 * SOURCE NOTES
 * - Time frame: the form says "over the last two weeks" (words) in its stem and column head;
 *   other copies say "last 2 weeks" or "past two weeks". The form's words are kept.
 * - Item 3: one copy spells "vigourous"; the form has "vigorous". Some copies end items with a
 *   full stop; the form's table does not.
 * - The form's worked example ("Example: If you have felt cheerful ...") refers to ticking a box
 *   on paper and is left out.
 * - Only "poor well-being" (raw below 13) is a published band name; raw 13-25 has no name, so
 *   no band is returned for it rather than an invented one.
 * - Licence: the centre asks that the source be mentioned (INSPQ: "Public domain. The source must
 *   be mentioned"); the line below is the source line printed with the form
 *   (thieme.de copy).
 */

export const WHO5_SCALE: readonly ResponseOption[] = [
  { value: 5, label: 'All of the time' },
  { value: 4, label: 'Most of the time' },
  { value: 3, label: 'More than half of the time' },
  { value: 2, label: 'Less than half of the time' },
  { value: 1, label: 'Some of the time' },
  { value: 0, label: 'At no time' },
];

export const WHO5_ITEMS: readonly InstrumentItem[] = [
  { id: 'who5_1', number: 1, text: 'I have felt cheerful and in good spirits' },
  { id: 'who5_2', number: 2, text: 'I have felt calm and relaxed' },
  { id: 'who5_3', number: 3, text: 'I have felt active and vigorous' },
  { id: 'who5_4', number: 4, text: 'I woke up feeling fresh and rested' },
  { id: 'who5_5', number: 5, text: 'My daily life has been filled with things that interest me' },
];

/** Raw scores below this indicate poor well-being. */
export const WHO5_POOR_BELOW = 13;

export function who5Percentage(raw: number): number {
  return raw * 4;
}

export const WHO5: Instrument = {
  id: 'who5',
  name: 'WHO-5 Well-Being Index',
  instructions:
    'Please indicate for each of the five statements which is closest to how you have been feeling over the last two weeks. Notice that higher numbers mean better well-being.',
  items: WHO5_ITEMS,
  conditionalItems: [],
  askConditionalItemsWhen: null,
  scale: WHO5_SCALE,
  total: { min: 0, max: 25 },
  bands: [{ min: 0, max: WHO5_POOR_BELOW - 1, label: 'poor well-being' }],
  licence:
    'Psychiatric Research Unit, WHO Collaborating Center for Mental Health, Frederiksborg General Hospital, DK-3400 Hillerød.',
  citation:
    'Topp CW, Østergaard SD, Søndergaard S, Bech P. The WHO-5 Well-Being Index: a systematic review of the literature. Psychother Psychosom. 2015;84(3):167-176.',
  sourceUrl: 'https://www.psykiatri-regionh.dk/who-5/who-5-questionnaires/',
};
