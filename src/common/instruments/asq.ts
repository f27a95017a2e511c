import { DECLINED, type Instrument, type InstrumentItem, type ResponseOption } from './types';

/*
 * ASQ, Ask Suicide-Screening Questions. Source: National Institute of Mental Health (NIMH),
 * ASQ Toolkit, ASQ Tool, https://www.nimh.nih.gov/research/research-conducted-at-nimh/asq-toolkit-materials
 * (formerly https://www.nimh.nih.gov/labs-at-nimh/asq-toolkit-materials/index.shtml).
 * Cross-checked against the Children's Hospital of Philadelphia pathway
 * (https://www.chop.edu/clinical-pathway/behavioral-health-issues-ask-suicide-screening-questions-asq),
 * fpnotebook (https://fpnotebook.com/Psych/Exam/AskScdScrngQstns.htm) and the item table in
 * Pediatrics (AAP), which prints questions 1-4 as below.
 *
 * Scoring, in the tool's words: "If patient answers "Yes" to any of questions 1 through 4, or
 * refuses to answer, they are considered a positive screen. Ask question #5 to assess acuity:
 * "Yes" to question #5 = acute positive screen (imminent risk identified) ... "No" to
 * question #5 = non-acute positive screen (potential risk identified)". "Clinical judgment can
 * always override a negative screen."
 *
 * SOURCE NOTES
 * - Question 3: the NIMH tool reads "thoughts about killing yourself"; the CHOP pathway writes
 *   "thoughts of killing yourself". The NIMH wording is kept.
 * - Question 5: fpnotebook writes "Are you having any thoughts of killing yourself now?"; the
 *   NIMH tool and CHOP read "Are you having thoughts of killing yourself right now?", kept here.
 * - The tool is clinician-read ("Ask the patient:") and has no respondent-facing stem, so
 *   `instructions` is null; asking it on a self-completed form is a product decision for the
 *   clinical lead (the NIMH validation is of nurse/clinician administration).
 * - The tool's follow-ups "If yes, how?" / "When?" (question 4) and "If yes, please describe:"
 *   (question 5) are free-text notes for the clinician; they are not scored and not shipped.
 * - NIMH prints no licence line on the tool; the toolkit is a free US-government resource.
 *   `licence` is therefore null rather than an invented sentence.
 * - The tool says what a refusal of questions 1-4 means, not a refusal of question 5. Here a
 *   refused question 5 keeps the screen positive (urgent, safety assessment asked for) and the
 *   staff reason says acuity is unknown; the clinical lead should confirm this.
 */

export const ASQ_YES = 1;
export const ASQ_NO = 0;

export const ASQ_SCALE: readonly ResponseOption[] = [
  { value: ASQ_YES, label: 'Yes' },
  { value: ASQ_NO, label: 'No' },
];

export const ASQ_SCREEN_ITEMS: readonly InstrumentItem[] = [
  { id: 'asq_1', number: 1, text: 'In the past few weeks, have you wished you were dead?', declinable: true },
  {
    id: 'asq_2',
    number: 2,
    text: 'In the past few weeks, have you felt that you or your family would be better off if you were dead?',
    declinable: true,
  },
  {
    id: 'asq_3',
    number: 3,
    text: 'In the past week, have you been having thoughts about killing yourself?',
    declinable: true,
  },
  { id: 'asq_4', number: 4, text: 'Have you ever tried to kill yourself?', declinable: true },
];

export const ASQ_ACUITY_ITEM: InstrumentItem = {
  id: 'asq_5',
  number: 5,
  text: 'Are you having thoughts of killing yourself right now?',
  declinable: true,
};

/** The tool's own names for its outcomes. */
export const ASQ_OUTCOMES = {
  negative: 'negative screen',
  nonAcutePositive: 'non-acute positive screen (potential risk identified)',
  acutePositive: 'acute positive screen (imminent risk identified)',
} as const;

export const ASQ: Instrument = {
  id: 'asq',
  name: 'Ask Suicide-Screening Questions (ASQ)',
  instructions: null,
  items: ASQ_SCREEN_ITEMS,
  conditionalItems: [ASQ_ACUITY_ITEM],
  askConditionalItemsWhen: { kind: 'anyAnswerIn', values: [ASQ_YES, DECLINED] },
  scale: ASQ_SCALE,
  total: null,
  bands: [],
  licence: null,
  citation:
    'Horowitz LM, Snyder DJ, Boudreaux ED, et al. Validation of the Ask Suicide-Screening Questions (ASQ) for Adult Medical Inpatients: A Brief Tool for All Ages. Psychosomatics. 2020;61(6):713-722. doi:10.1016/j.psym.2020.04.008',
  sourceUrl: 'https://www.nimh.nih.gov/research/research-conducted-at-nimh/asq-toolkit-materials',
};
