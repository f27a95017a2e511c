import { type LanguageLexicon, LEXICON } from './lexicon';
import {
  type LetterFolds,
  normalizeWord,
  type SpannedWord,
  toSpannedClauses,
  type Vocabulary,
} from './normalize';

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

/** A language's lexicon, ready to match: words normalised the way that language's text is. */
interface Language {
  vocabulary: Vocabulary;
  high: IndexedPatterns;
  medium: IndexedPatterns;
  benignIdioms: IndexedPatterns;
  pseudoNegations: IndexedPatterns;
  negationCues: ReadonlySet<string>;
  negationWindow: number;
  firstPersonCues: ReadonlySet<string>;
  thirdPersonCues: ReadonlySet<string>;
  fillers: ReadonlySet<string>;
}

const ALL_LANGUAGES: readonly LanguageLexicon[] = Object.values(LEXICON.languages);
const COMPILED = new Map<LanguageLexicon, Language>(
  ALL_LANGUAGES.map((lexicon) => [lexicon, compileLanguage(lexicon)]),
);

/**
 * Each language reads the text with its own words and cues, whatever language the answer was
 * given in, so adding a language never changes what another finds: a text only gains the
 * findings of the new language's phrases.
 */
export function scanText(text: string, languages: readonly LanguageLexicon[] = ALL_LANGUAGES): TextScan {
  const findings = languages.flatMap((lexicon) => {
    const language = COMPILED.get(lexicon) ?? compileLanguage(lexicon);
    return toSpannedClauses(text, language.vocabulary).flatMap((clause) => scanClause(clause, language));
  });
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

function compileLanguage(lexicon: LanguageLexicon): Language {
  const foldedLetters: LetterFolds = new Map(Object.entries(lexicon.foldedLetters));
  const normalize = (word: string) => normalizeWord(word, foldedLetters);
  const normalizedSet = (words: readonly string[]): ReadonlySet<string> => new Set(words.map(normalize));
  const otherPersonForms: ReadonlyMap<string, readonly string[]> = new Map(
    Object.entries(lexicon.otherPersonForms).map(([word, forms]) => [normalize(word), forms]),
  );
  const compile = (phrases: readonly string[]) =>
    indexPatterns(phrases.map((phrase) => compilePattern(phrase, normalize, otherPersonForms)));
  return {
    vocabulary: {
      compounds: normalizedSet(lexicon.compounds),
      clauseBreaks: normalizedSet(lexicon.clauseBreaks),
      foldedLetters,
    },
    high: compile(lexicon.high),
    medium: compile(lexicon.medium),
    benignIdioms: compile(lexicon.benignIdioms),
    pseudoNegations: compile(lexicon.pseudoNegations),
    negationCues: normalizedSet(lexicon.negationCues),
    negationWindow: lexicon.negationWindow,
    firstPersonCues: normalizedSet(lexicon.firstPersonCues),
    thirdPersonCues: normalizedSet(lexicon.thirdPersonCues),
    fillers: normalizedSet(lexicon.fillers),
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

function scanClause(spannedWords: SpannedWord[], language: Language): Finding[] {
  const words = readWords(spannedWords, language);
  const texts = words.map((word) => word.text);
  const benignSpans = findMatches(language.benignIdioms, texts);
  const isBenign = (match: Match) =>
    benignSpans.some((span) => span.start < match.end && match.start < span.end);
  const assessAll = (patterns: IndexedPatterns, assess: (match: Match) => Finding | null) =>
    findMatches(patterns, texts)
      .filter((match) => !isBenign(match))
      .map(assess)
      .filter((finding) => finding !== null);

  return [
    ...assessAll(language.high, (match) => assessHighMatch(match, words, language)),
    ...assessAll(language.medium, (match) => assessMediumMatch(match, words, language)),
  ];
}

/** Marks negation cues (unless part of a pseudo-negation) before fillers are dropped, as pseudo-negations contain fillers. */
function readWords(spannedWords: SpannedWord[], language: Language): Word[] {
  const rawWords = spannedWords.map((word) => word.text);
  const shielded = new Set(
    findMatches(language.pseudoNegations, rawWords).flatMap((match) => range(match.start, match.end)),
  );
  return spannedWords
    .map(({ text, span }, index) => ({
      text,
      span,
      negates: language.negationCues.has(text) && !shielded.has(index),
    }))
    .filter((word) => !language.fillers.has(word.text));
}

function assessHighMatch(match: Match, words: readonly Word[], language: Language): Finding {
  const qualifiers = [
    ...(isNegated(match, words, language) ? ['negated'] : []),
    ...(personOf(match, words, language) === 'other' ? ['about someone else'] : []),
  ];
  return {
    severity: qualifiers.length === 0 ? 'high' : 'medium',
    label: labelOf(match, qualifiers),
    span: spanOfMatch(match, words),
  };
}

function assessMediumMatch(match: Match, words: readonly Word[], language: Language): Finding | null {
  if (isNegated(match, words, language)) return null;
  const qualifiers = personOf(match, words, language) === 'other' ? ['about someone else'] : [];
  return { severity: 'medium', label: labelOf(match, qualifiers), span: spanOfMatch(match, words) };
}

/** From the first matched word to the last, as written: fillers between them are part of the phrase. */
function spanOfMatch(match: Match, words: readonly Word[]): Word['span'] {
  const first = words[match.start]?.span;
  const last = words[match.end - 1]?.span;
  return first && last ? { start: first.start, end: last.end } : null;
}

function isNegated(match: Match, words: readonly Word[], language: Language): boolean {
  return words
    .slice(Math.max(0, match.start - language.negationWindow), match.start)
    .some((word) => word.negates);
}

/** The phrase's own pronoun decides first; otherwise the nearest person mentioned before it; otherwise the writer. */
function personOf(match: Match, words: readonly Word[], language: Language): Person {
  const marked = match.alternatives.find((alternative) => alternative.person !== undefined);
  if (marked?.person) return marked.person;
  for (let index = match.start - 1; index >= 0; index--) {
    const text = words[index]?.text ?? '';
    if (language.firstPersonCues.has(text)) return 'first';
    if (language.thirdPersonCues.has(text)) return 'other';
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

type Normalize = (word: string) => string;
type OtherPersonForms = ReadonlyMap<string, readonly string[]>;

function compilePattern(phrase: string, normalize: Normalize, otherPersonForms: OtherPersonForms): Pattern {
  return phrase.split(' ').map((slot) => compileSlot(slot, normalize, otherPersonForms));
}

function compileSlot(slot: string, normalize: Normalize, otherPersonForms: OtherPersonForms): Slot {
  const words = new Map<string, Alternative>();
  const allChoices = slot.split('/');
  const choices = allChoices.filter((choice) => choice !== NUMBER_PLACEHOLDER);
  for (const choice of choices) {
    const otherForms = otherPersonForms.get(normalize(choice));
    words.set(normalize(choice), otherForms ? { label: choice, person: 'first' } : { label: choice });
  }
  // Written choices win over generated other-person forms ("dye my/her" keeps "her" unmarked).
  for (const choice of choices) {
    for (const form of otherPersonForms.get(normalize(choice)) ?? []) {
      if (!words.has(normalize(form))) words.set(normalize(form), { label: form, person: 'other' });
    }
  }
  return { words, acceptsNumbers: allChoices.includes(NUMBER_PLACEHOLDER) };
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset);
}
