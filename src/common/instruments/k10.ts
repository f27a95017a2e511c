import type { Instrument, InstrumentItem, ResponseOption } from './types';

/*
 * K10, Kessler Psychological Distress Scale, in its Australian self-report form (items scored
 * 1 "None of the time" to 5 "All of the time", total 10-50), which is the form the Andrews &
 * Slade bands below were made for.
 * Sources: items and scale: Australian Government Department of Health, Primary Mental Health
 * Care Minimum Data Set specification, K10+ questions 1-10 (https://docs.pmhc-mds.com/), and
 * the Australian K10 form (copies at https://scribd.com/document/742177174/k10-assessment-form
 * and http://adhn.org.au/your-health/kessler-10-k10). Copyright line and citation: Harvard
 * Medical School, National Comorbidity Survey, https://www.hcp.med.harvard.edu/ncs/k6_scales.php
 * ("Use of the K6 and K10 is free and does not require any formal permission or approval. We do
 * ask that you please cite the below article and include the copyright"), and NSW Health
 * Transcultural Mental Health Centre, "K-10 WHO copyright and citation"
 * (https://www.dhi.health.nsw.gov.au/transcultural-mental-health-centre-tmhc/resources/multilingual-resources-by-title/kessler-10):
 * "Please include the WHO copyright and the citation ... © World Health Organization 2003".
 * Bands: Andrews G, Slade T (2001), as printed on the Australian K10 scoring guides
 * (https://dqref.com/contents/k-10.html, http://novopsych.com/k10-2.html).
 *
 * SOURCE NOTES
 * - Time frame: Kessler's own (US) self-report form asks "During the last 30 days, about how
 *   often did you feel ...", with the answers printed from "All of the time" down. The
 *   Australian form asks "In the past 4 weeks, about how often did you feel ...", scored 1 = "None
 *   of the time" to 5 = "All of the time"; that form is used because the product's scale and bands
 *   are the Australian ones. Its stem still says "past 30 days", as printed.
 * - The PMHC MDS specification drops "about" from items 4-10 ("In the past 4 weeks, how often
 *   did you feel hopeless?"); the Australian form copies keep it in all ten, as here.
 * - The stem's second sentence differs by medium ("Tick a box ...", "Press a box ...", "Select an
 *   option below each question that best represents how you have been."); only the first
 *   sentence, identical in all copies, is kept.
 * - Band names: the K10's developers published no cut-offs. The Andrews & Slade names vary
 *   across Australian guides ("Likely to be well" / "Likely to have a mild mental disorder" /
 *   "... mild disorder" / "... mild mental health disorder"); the CRUfAD-derived wording below
 *   appears in two guides. The ABS uses different groups (10-15 low, 16-21 moderate, 22-29
 *   high, 30-50 very high), not used here.
 * - The copyright line "© World Health Organization 2003" is the one both the Harvard page and
 *   NSW Health ask users to include with the K10 (the same line also appears on the WHO ASRS).
 */

export const K10_SCALE: readonly ResponseOption[] = [
  { value: 1, label: 'None of the time' },
  { value: 2, label: 'A little of the time' },
  { value: 3, label: 'Some of the time' },
  { value: 4, label: 'Most of the time' },
  { value: 5, label: 'All of the time' },
];

const K10_TEXTS = [
  'In the past 4 weeks, about how often did you feel tired out for no good reason?',
  'In the past 4 weeks, about how often did you feel nervous?',
  'In the past 4 weeks, about how often did you feel so nervous that nothing could calm you down?',
  'In the past 4 weeks, about how often did you feel hopeless?',
  'In the past 4 weeks, about how often did you feel restless or fidgety?',
  'In the past 4 weeks, about how often did you feel so restless you could not sit still?',
  'In the past 4 weeks, about how often did you feel depressed?',
  'In the past 4 weeks, about how often did you feel that everything was an effort?',
  'In the past 4 weeks, about how often did you feel so sad that nothing could cheer you up?',
  'In the past 4 weeks, about how often did you feel worthless?',
] as const;

export const K10_ITEMS: readonly InstrumentItem[] = K10_TEXTS.map((text, index) => ({
  id: `k10_${index + 1}`,
  number: index + 1,
  text,
}));

export const K10: Instrument = {
  id: 'k10',
  name: 'Kessler Psychological Distress Scale (K10)',
  instructions: 'These questions concern how you have been feeling over the past 30 days.',
  items: K10_ITEMS,
  conditionalItems: [],
  askConditionalItemsWhen: null,
  scale: K10_SCALE,
  total: { min: 10, max: 50 },
  bands: [
    { min: 10, max: 19, label: 'Likely to be well' },
    { min: 20, max: 24, label: 'Likely to have a mild mental disorder' },
    { min: 25, max: 29, label: 'Likely to have a moderate mental disorder' },
    { min: 30, max: 50, label: 'Likely to have a severe mental disorder' },
  ],
  licence: '© World Health Organization 2003',
  citation:
    'Kessler, R.C., Barker, P.R., Colpe, L.J., Epstein, J.F., Gfroerer, J.C., Hiripi, E., Howes, M.J, Normand, S-L.T., Manderscheid, R.W., Walters, E.E., Zaslavsky, A.M. (2003). Screening for serious mental illness in the general population. Archives of General Psychiatry, 60(2), 184-189.',
  sourceUrl: 'https://www.hcp.med.harvard.edu/ncs/k6_scales.php',
};
