import type { LikertValue } from './templates';

/**
 * The survey's own words for each Likert value (spec section 2), unless a question has its own.
 * A module of their own, for the public pages that show the scale (landing, demo survey) without
 * the template schemas: templates.ts gives them on.
 */
export const LIKERT_LABELS: Record<LikertValue, string> = {
  '1': 'Excellent',
  '2': 'Good',
  '3': 'Neutral',
  '4': 'Poor',
  '5': 'Very Poor',
};

/**
 * The words of the frequency scale ("how often ..."), which the starter template's self-harm
 * question uses as its own labels and the demo survey shows: 1 is the best answer, as above.
 */
export const FREQUENCY_LABELS: Record<LikertValue, string> = {
  '1': 'Never',
  '2': 'Rarely',
  '3': 'Sometimes',
  '4': 'Often',
  '5': 'Almost always',
};
