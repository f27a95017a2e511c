import { LEXICON } from './lexicon';
import { normalizeWord, type SpannedWord, toSpannedClauses, type Vocabulary } from './normalize';

export type TextSeverity = 'high' | 'medium';

interface TextScan {
  severity: TextSeverity | null;
  /** Lexicon phrases that contributed, e.g. "kill myself" or "hurt myself (negated)". */
  matched: string[];
  /** Where each contributing phrase was written, in text order: `text.slice(start, end)`. */
  phrases: MatchedPhrase[];
}

export interface MatchedPhrase {
  start: number;
  end: number;
  severity: TextSeverity;
  /** The lexicon phrase with its qualifiers, as in `matched`. */
  label: string;
}

export const LEXICON_VERSION: string = LEXICON.version;

type Person = 'first' | 'other';

interface Alternative {
  label: string;
  person?: Person;
}

interface Slot {
  words: ReadonlyMap<string, Alternative>;
  acceptsNumbers: boolean;
}

type Pattern = readonly Slot[];

interface Match {
  start: number;
  end: number;
  alternatives: Alternative[];
}

interface Word {
  text: string;
  negates: boolean;
  span: SpannedWord['span'];
}

interface Finding {
  severity: TextSeverity;
  label: string;
  span: SpannedWord['span'];
}

const NUMBER_PLACEHOLDER = '#';
const NUMBER = /^\p{N}+$/u;

const normalizedSet = (words: readonly string[]): ReadonlySet<string> => new Set(words.map(normalizeWord));

const VOCABULARY: Vocabulary = {
  compounds: normalizedSet(LEXICON.compounds),
  clauseBreaks: normalizedSet(LEXICON.clauseBreaks),
};
const NEGATION_CUES = normalizedSet(LEXICON.negationCues);
const FIRST_PERSON_CUES = normalizedSet(LEXICON.firstPersonCues);
const THIRD_PERSON_CUES = normalizedSet(LEXICON.thirdPersonCues);
const FILLERS = normalizedSet(LEXICON.fillers);
const OTHER_PERSON_FORMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(LEXICON.otherPersonForms).map(([word, forms]) => [normalizeWord(word), forms]),
);

const HIGH = indexPatterns(LEXICON.high.map(compilePattern));
const MEDIUM = indexPatterns(LEXICON.medium.map(compilePattern));
const BENIGN_IDIOMS = indexPatterns(LEXICON.benignIdioms.map(compilePattern));
const PSEUDO_NEGATIONS = indexPatterns(LEXICON.pseudoNegations.map(compilePattern));

export function scanText(text: string): TextScan {
  const findings = toSpannedClauses(text, VOCABULARY).flatMap(scanClause);
  const severity = findings.some((finding) => finding.severity === 'high')
    ? 'high'
    : findings.length > 0
      ? 'medium'
      : null;
  return {
    severity,
    matched: [...new Set(findings.map((finding) => finding.label))],
    phrases: placedPhrases(findings),
  };
}

/** Each placed finding once, in text order; where two overlap, the more serious is told. */
function placedPhrases(findings: readonly Finding[]): MatchedPhrase[] {
  const placed: MatchedPhrase[] = [];
  const bySeverity = [...findings].sort(
    (a, b) => Number(b.severity === 'high') - Number(a.severity === 'high'),
  );
  for (const { span, severity, label } of bySeverity) {
    if (!span || placed.some((other) => other.start < span.end && span.start < other.end)) continue;
    placed.push({ ...span, severity, label });
  }
  return placed.sort((a, b) => a.start - b.start);
}

function scanClause(spannedWords: SpannedWord[]): Finding[] {
  const words = readWords(spannedWords);
  const texts = words.map((word) => word.text);
  const benignSpans = findMatches(BENIGN_IDIOMS, texts);
  const isBenign = (match: Match) =>
    benignSpans.some((span) => span.start < match.end && match.start < span.end);
  const assessAll = (patterns: IndexedPatterns, assess: (match: Match) => Finding | null) =>
    findMatches(patterns, texts)
      .filter((match) => !isBenign(match))
      .map(assess)
      .filter((finding) => finding !== null);

  return [
    ...assessAll(HIGH, (match) => assessHighMatch(match, words)),
    ...assessAll(MEDIUM, (match) => assessMediumMatch(match, words)),
  ];
}

/** Marks negation cues (unless part of a pseudo-negation) before fillers are dropped, as pseudo-negations contain fillers. */
function readWords(spannedWords: SpannedWord[]): Word[] {
  const rawWords = spannedWords.map((word) => word.text);
  const shielded = new Set(
    findMatches(PSEUDO_NEGATIONS, rawWords).flatMap((match) => range(match.start, match.end)),
  );
  return spannedWords
    .map(({ text, span }, index) => ({
      text,
      span,
      negates: NEGATION_CUES.has(text) && !shielded.has(index),
    }))
    .filter((word) => !FILLERS.has(word.text));
}

function assessHighMatch(match: Match, words: readonly Word[]): Finding {
  const qualifiers = [
    ...(isNegated(match, words) ? ['negated'] : []),
    ...(personOf(match, words) === 'other' ? ['about someone else'] : []),
  ];
  return {
    severity: qualifiers.length === 0 ? 'high' : 'medium',
    label: labelOf(match, qualifiers),
    span: spanOfMatch(match, words),
  };
}

function assessMediumMatch(match: Match, words: readonly Word[]): Finding | null {
  if (isNegated(match, words)) return null;
  const qualifiers = personOf(match, words) === 'other' ? ['about someone else'] : [];
  return { severity: 'medium', label: labelOf(match, qualifiers), span: spanOfMatch(match, words) };
}

/** From the first matched word to the last, as written: fillers between them are part of the phrase. */
function spanOfMatch(match: Match, words: readonly Word[]): Word['span'] {
  const first = words[match.start]?.span;
  const last = words[match.end - 1]?.span;
  return first && last ? { start: first.start, end: last.end } : null;
}

function isNegated(match: Match, words: readonly Word[]): boolean {
  return words
    .slice(Math.max(0, match.start - LEXICON.negationWindow), match.start)
    .some((word) => word.negates);
}

/** The phrase's own pronoun decides first; otherwise the nearest person mentioned before it; otherwise the writer. */
function personOf(match: Match, words: readonly Word[]): Person {
  const marked = match.alternatives.find((alternative) => alternative.person !== undefined);
  if (marked?.person) return marked.person;
  for (let index = match.start - 1; index >= 0; index--) {
    const text = words[index]?.text ?? '';
    if (FIRST_PERSON_CUES.has(text)) return 'first';
    if (THIRD_PERSON_CUES.has(text)) return 'other';
  }
  return 'first';
}

function labelOf(match: Match, qualifiers: readonly string[]): string {
  const phrase = match.alternatives.map((alternative) => alternative.label).join(' ');
  return qualifiers.length === 0 ? phrase : `${phrase} (${qualifiers.join(', ')})`;
}

/**
 * A lexicon's patterns, found by the words their first slot accepts: at each word of a clause
 * only the few patterns that can start there are tried, not the whole lexicon.
 */
interface IndexedPatterns {
  patterns: readonly Pattern[];
  /** Places in `patterns` of those whose first slot accepts the word. */
  byFirstWord: ReadonlyMap<string, readonly number[]>;
  /** Places in `patterns` of those whose first slot accepts a number. */
  numberFirst: readonly number[];
}

function indexPatterns(patterns: readonly Pattern[]): IndexedPatterns {
  const byFirstWord = new Map<string, number[]>();
  const numberFirst: number[] = [];
  patterns.forEach((pattern, place) => {
    const first = pattern[0];
    if (!first) return;
    for (const word of first.words.keys()) byFirstWord.set(word, [...(byFirstWord.get(word) ?? []), place]);
    if (first.acceptsNumbers) numberFirst.push(place);
  });
  return { patterns, byFirstWord, numberFirst };
}

/** Every match of every pattern, in lexicon order, then by position (the order findings are told). */
function findMatches(indexed: IndexedPatterns, texts: readonly string[]): Match[] {
  const found: { place: number; match: Match }[] = [];
  texts.forEach((text, start) => {
    const places = new Set(indexed.byFirstWord.get(text));
    if (NUMBER.test(text)) for (const place of indexed.numberFirst) places.add(place);
    for (const place of places) {
      const pattern = indexed.patterns[place] as Pattern;
      const alternatives = matchAt(pattern, texts, start);
      if (alternatives) found.push({ place, match: { start, end: start + pattern.length, alternatives } });
    }
  });
  return found.sort((a, b) => a.place - b.place || a.match.start - b.match.start).map(({ match }) => match);
}

function matchAt(pattern: Pattern, texts: readonly string[], start: number): Alternative[] | null {
  if (start + pattern.length > texts.length) return null;
  const alternatives: Alternative[] = [];
  for (let offset = 0; offset < pattern.length; offset++) {
    const slot = pattern[offset] as Slot;
    const text = texts[start + offset] as string;
    const alternative =
      slot.words.get(text) ?? (slot.acceptsNumbers && NUMBER.test(text) ? { label: text } : null);
    if (!alternative) return null;
    alternatives.push(alternative);
  }
  return alternatives;
}

function compilePattern(phrase: string): Pattern {
  return phrase.split(' ').map(compileSlot);
}

function compileSlot(slot: string): Slot {
  const words = new Map<string, Alternative>();
  const allChoices = slot.split('/');
  const choices = allChoices.filter((choice) => choice !== NUMBER_PLACEHOLDER);
  for (const choice of choices) {
    const otherForms = OTHER_PERSON_FORMS.get(normalizeWord(choice));
    words.set(normalizeWord(choice), otherForms ? { label: choice, person: 'first' } : { label: choice });
  }
  // Written choices win over generated other-person forms ("dye my/her" keeps "her" unmarked).
  for (const choice of choices) {
    for (const form of OTHER_PERSON_FORMS.get(normalizeWord(choice)) ?? []) {
      if (!words.has(normalizeWord(form))) words.set(normalizeWord(form), { label: form, person: 'other' });
    }
  }
  return { words, acceptsNumbers: allChoices.includes(NUMBER_PLACEHOLDER) };
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset);
}
