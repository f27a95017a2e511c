/**
 * What a validated screening instrument is (design section 13): a locked block whose wording,
 * scale, scoring, bands, licence line and citation come verbatim from its publisher. Nothing in
 * an instrument may be edited by an institution; templates only choose which instruments to
 * include.
 */

export const INSTRUMENT_IDS = ['phq9', 'phq2', 'gad7', 'gad2', 'asq', 'k10', 'who5'] as const;
export type InstrumentId = (typeof INSTRUMENT_IDS)[number];

/** One answer choice, as the publisher prints it. */
export interface ResponseOption {
  readonly value: number;
  readonly label: string;
}

export interface InstrumentItem {
  /** Stable id stored with answers; PHQ-2 and GAD-2 reuse their parent's ids (same wording). */
  readonly id: string;
  /** 1-based position in the published form, used in staff-facing reasons ("item 9"). */
  readonly number: number;
  readonly text: string;
  /** Whether a respondent may decline this item and still submit (only the ASQ allows it). */
  readonly declinable?: boolean;
}

/** A score range with the publisher's name for it; both ends inclusive. */
export interface ScoreBand {
  readonly min: number;
  readonly max: number;
  readonly label: string;
}

export interface Instrument {
  readonly id: InstrumentId;
  readonly name: string;
  /** The published stem shown above the items; absent where the form has none for respondents. */
  readonly instructions: string | null;
  readonly items: readonly InstrumentItem[];
  /** Items asked only when `askConditionalItemsWhen` holds (PHQ-2 -> PHQ-9, ASQ -> Q5). */
  readonly conditionalItems: readonly InstrumentItem[];
  readonly askConditionalItemsWhen: Condition | null;
  readonly scale: readonly ResponseOption[];
  /** The range of the published total; null for the ASQ, which has outcomes, not a score. */
  readonly total: { readonly min: number; readonly max: number } | null;
  readonly bands: readonly ScoreBand[];
  /** The publisher's licence or copyright line, verbatim; null where the publisher prints none. */
  readonly licence: string | null;
  readonly citation: string;
  /** Where the wording above was taken from, for the staff "about this instrument" view. */
  readonly sourceUrl: string;
}

/**
 * What a respondent is shown of an instrument, with the rule for its conditional items: the
 * server sends it with every survey block (from the library, unchanged), so the survey screen
 * shows the publisher's words without the browser downloading the whole library.
 */
export type InstrumentForm = Pick<
  Instrument,
  'name' | 'instructions' | 'items' | 'conditionalItems' | 'askConditionalItemsWhen' | 'scale' | 'licence'
>;

/**
 * When an instrument's conditional items are asked, as data so the survey screen and the server
 * read the same rule: either the first items' total reaches a cut point (PHQ-2, GAD-2), or any
 * first item has one of the given answers (ASQ: a yes or a refusal).
 */
export type Condition =
  | { readonly kind: 'totalAtLeast'; readonly atLeast: number }
  | { readonly kind: 'anyAnswerIn'; readonly values: readonly ItemAnswer[] };

/** A respondent's explicit refusal of a declinable item (the ASQ counts it as a positive screen). */
export const DECLINED = 'declined';
export type ItemAnswer = number | typeof DECLINED;

/** Answers keyed by item id. Items not yet answered are simply absent. */
export type InstrumentAnswers = Readonly<Record<string, ItemAnswer>>;
