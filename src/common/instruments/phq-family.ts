import type { ResponseOption } from './types';

/*
 * The PHQ screeners' shared pieces (PHQ-9, PHQ-2, GAD-7, GAD-2), from the Pfizer forms.
 * Source: Pfizer Inc., Patient Health Questionnaire (PHQ) Screeners, https://www.phqscreeners.com/
 * (English PHQ-9 and GAD-7 forms). Cross-checked against copies of the same forms at
 * https://therandomtandem.com/mood-screening-questionnaire-printable-4892 (PHQ-9),
 * https://www.touringmanual.com/resources/generalized-anxiety-disorder-7-item-gad-7-generalized-anxiety-disorder-scale/
 * (GAD-7) and the LOINC/FHIR GAD-7 questionnaire (LOINC 69737-5), whose copyright field
 * repeats the forms' footer.
 *
 * SOURCE NOTES
 * - The forms' footer reads "No permission required to reproduce, translate, display or
 *   distribute." (three copies agree). A wording with "is" ("no permission is required to
 *   reproduce, translate, display or distribute") is attributed to phqscreeners.com but could
 *   not be found in any stored copy of the site, so the forms' footer, which travels with the
 *   instrument, is the licence line.
 * - One PHQ-2 copy (Hindawi, table citing Pfizer) adds "PHQ2 Copyright © Pfizer Inc. All rights
 *   are reserved."; the PHQ-9 and GAD-7 forms do not print it.
 * - The LOINC/FHIR copy prefixes "Copyright © Pfizer Inc. All rights reserved."; the printed
 *   forms do not, so it is left out.
 * - Paper-only directions ("(Use "✔" to indicate your answer)", "FOR OFFICE CODING") are left out
 *   of the stem: they describe the paper form, not the question.
 * - The forms' closing functional question ("If you checked off any problems, how difficult
 *   ...") is not scored and is not shipped.
 */

export const PHQ_FREQUENCY_SCALE: readonly ResponseOption[] = [
  { value: 0, label: 'Not at all' },
  { value: 1, label: 'Several days' },
  { value: 2, label: 'More than half the days' },
  { value: 3, label: 'Nearly every day' },
];

export const PHQ_LICENCE =
  'Developed by Drs. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with an educational grant from Pfizer Inc. No permission required to reproduce, translate, display or distribute.';

export const PHQ_SOURCE_URL = 'https://www.phqscreeners.com/';
