import { LEXICON } from './lexicon';
import { normalizeWord, toClauses, type Vocabulary } from './normalize';

export type TextSeverity = 'high' | 'medium';

export interface TextScan {
  severity: TextSeverity | null;
  /** Lexicon phrases that contributed, e.g. "kill myself" or "hurt myself (negated)". */
  matched: string[];
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
}

interface Finding {
  severity: TextSeverity;
  label: string;
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

const HIGH = LEXICON.high.map(compilePattern);
const MEDIUM = LEXICON.medium.map(compilePattern);
const BENIGN_IDIOMS = LEXICON.benignIdioms.map(compilePattern);
const PSEUDO_NEGATIONS = LEXICON.pseudoNegations.map(compilePattern);

export function scanText(text: string): TextScan {
  const findings = toClauses(text, VOCABULARY).flatMap(scanClause);
  const severity = findings.some((finding) => finding.severity === 'high')
    ? 'high'
    : findings.length > 0
      ? 'medium'
      : null;
  return { severity, matched: [...new Set(findings.map((finding) => finding.label))] };
}

function scanClause(rawWords: string[]): Finding[] {
  const words = readWords(rawWords);
  const texts = words.map((word) => word.text);
  const benignSpans = BENIGN_IDIOMS.flatMap((idiom) => findMatches(idiom, texts));
  const isBenign = (match: Match) =>
    benignSpans.some((span) => span.start < match.end && match.start < span.end);
  const assessAll = (patterns: readonly Pattern[], assess: (match: Match) => Finding | null) =>
    patterns
      .flatMap((pattern) => findMatches(pattern, texts))
      .filter((match) => !isBenign(match))
      .map(assess)
      .filter((finding) => finding !== null);

  return [
    ...assessAll(HIGH, (match) => assessHighMatch(match, words)),
    ...assessAll(MEDIUM, (match) => assessMediumMatch(match, words)),
  ];
}

/** Marks negation cues (unless part of a pseudo-negation) before fillers are dropped, as pseudo-negations contain fillers. */
function readWords(rawWords: string[]): Word[] {
  const shielded = new Set(
    PSEUDO_NEGATIONS.flatMap((pattern) => findMatches(pattern, rawWords)).flatMap((match) =>
      range(match.start, match.end),
    ),
  );
  return rawWords
    .map((text, index) => ({ text, negates: NEGATION_CUES.has(text) && !shielded.has(index) }))
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
  };
}

function assessMediumMatch(match: Match, words: readonly Word[]): Finding | null {
  if (isNegated(match, words)) return null;
  const qualifiers = personOf(match, words) === 'other' ? ['about someone else'] : [];
  return { severity: 'medium', label: labelOf(match, qualifiers) };
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

function findMatches(pattern: Pattern, texts: readonly string[]): Match[] {
  const matches: Match[] = [];
  for (let start = 0; start + pattern.length <= texts.length; start++) {
    const alternatives = matchAt(pattern, texts, start);
    if (alternatives) matches.push({ start, end: start + pattern.length, alternatives });
  }
  return matches;
}

function matchAt(pattern: Pattern, texts: readonly string[], start: number): Alternative[] | null {
  const alternatives: Alternative[] = [];
  for (const [offset, slot] of pattern.entries()) {
    const text = texts[start + offset] ?? '';
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
