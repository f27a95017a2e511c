import { PHQ_FREQUENCY_SCALE, PHQ_LICENCE, PHQ_SOURCE_URL } from './phq-family';
import { PHQ9_ITEMS, PHQ9_STEM } from './phq9';
import type { Instrument } from './types';

/*
 * PHQ-2: the PHQ-9's first two items, asked first; a total of 3 or more asks the PHQ-9's other
 * seven items in the same sitting, and the sitting is then scored as a PHQ-9.
 * Source: Pfizer Inc., https://www.phqscreeners.com/ (PHQ-2 uses the PHQ-9 items 1-2 verbatim);
 * cut point 3: Kroenke, Spitzer & Williams (2003).
 *
 * SOURCE NOTES
 * - The PHQ-2's publishers give a cut point (3), not named severity bands, so none are listed.
 */

export const PHQ2_FOLLOW_ON_AT = 3;

export const PHQ2: Instrument = {
  id: 'phq2',
  name: 'Patient Health Questionnaire-2 (PHQ-2)',
  instructions: PHQ9_STEM,
  items: PHQ9_ITEMS.slice(0, 2),
  conditionalItems: PHQ9_ITEMS.slice(2),
  askConditionalItemsWhen: { kind: 'totalAtLeast', atLeast: PHQ2_FOLLOW_ON_AT },
  scale: PHQ_FREQUENCY_SCALE,
  total: { min: 0, max: 6 },
  bands: [],
  licence: PHQ_LICENCE,
  citation:
    'Kroenke K, Spitzer RL, Williams JB. The Patient Health Questionnaire-2: validity of a two-item depression screener. Med Care. 2003;41(11):1284-1292.',
  sourceUrl: PHQ_SOURCE_URL,
};
