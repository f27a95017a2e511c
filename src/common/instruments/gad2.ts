import { GAD7_ITEMS, GAD7_STEM } from './gad7';
import { PHQ_FREQUENCY_SCALE, PHQ_LICENCE, PHQ_SOURCE_URL } from './phq-family';
import type { Instrument } from './types';

/*
 * GAD-2: the GAD-7's first two items, asked first; a total of 3 or more asks the GAD-7's other
 * five items in the same sitting, and the sitting is then scored as a GAD-7.
 * Source: Pfizer Inc., https://www.phqscreeners.com/ (GAD-2 uses the GAD-7 items 1-2 verbatim);
 * cut point 3: Kroenke et al. (2007).
 *
 * SOURCE NOTES
 * - Like the PHQ-2, the GAD-2 has a published cut point (3) and no named bands.
 */

export const GAD2_FOLLOW_ON_AT = 3;

export const GAD2: Instrument = {
  id: 'gad2',
  name: 'Generalized Anxiety Disorder 2-item (GAD-2)',
  instructions: GAD7_STEM,
  items: GAD7_ITEMS.slice(0, 2),
  conditionalItems: GAD7_ITEMS.slice(2),
  askConditionalItemsWhen: { kind: 'totalAtLeast', atLeast: GAD2_FOLLOW_ON_AT },
  scale: PHQ_FREQUENCY_SCALE,
  total: { min: 0, max: 6 },
  bands: [],
  licence: PHQ_LICENCE,
  citation:
    'Kroenke K, Spitzer RL, Williams JB, Monahan PO, Löwe B. Anxiety disorders in primary care: prevalence, impairment, comorbidity, and detection. Ann Intern Med. 2007;146(5):317-325.',
  sourceUrl: PHQ_SOURCE_URL,
};
