/**
 * Turns free text into clauses of comparable words. Student text and lexicon entries go through
 * the same steps, so the lexicon can be written in plain spelling and still match
 * "KILLLL MYSELF!!!", "kil my self", "I’m" or full-width letters.
 */

export interface Vocabulary {
  /** Words students often split in two ("my self", "no one", "un-alive"), in normalised form. */
  compounds: ReadonlySet<string>;
  /** Words that start a new clause, so that negation or a subject does not leak across them. */
  clauseBreaks: ReadonlySet<string>;
  /** Accented letters read as their plain letter (Spanish typed on a phone often drops accents). */
  foldedLetters?: LetterFolds;
}

/** Lowercase letter to the letter it is read as. */
export type LetterFolds = ReadonlyMap<string, string>;

const NO_FOLDS: LetterFolds = new Map();

// Removed rather than replaced by a space: "don't" must become "dont", and an invisible
// character inside a word must not split it.
const APOSTROPHES_AND_INVISIBLES = /['`\u00b4\u2018\u2019\u02bc\u2032]|\p{Cf}/gu;
const CLAUSE_PUNCTUATION_RUNS = /([.!?;:,()\n\r\u2013\u2014\u2026]+)/u;
/** One character and the combining marks written after it: what is normalised as a unit. */
const CHARACTER_WITH_MARKS = /\P{M}\p{M}*|\p{M}+/gsu;
// Collapsing every doubled letter (not just long runs) makes "kil" and "kill" the same word.
const REPEATED_LETTER = /(\p{L})\1+/gu;

export function normalizeWord(word: string, foldedLetters: LetterFolds = NO_FOLDS): string {
  return collapseRepeatedLetters(prepare(word, foldedLetters));
}

export function toClauses(text: string, vocabulary: Vocabulary): string[][] {
  return toSpannedClauses(text, vocabulary).map((clause) => clause.map((word) => word.text));
}

/** A word of a clause and where it was written: `text.slice(start, end)` of the student's own text. */
export interface SpannedWord {
  text: string;
  /** Null in the rare text whose normalised form cannot be traced back character by character. */
  span: { start: number; end: number } | null;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** `toClauses`, with each word's place in the original text, so a match can be shown where it was written. */
export function toSpannedClauses(text: string, vocabulary: Vocabulary): SpannedWord[][] {
  const folds = vocabulary.foldedLetters ?? NO_FOLDS;
  const prepared = prepare(text, folds);
  const origin = originOf(text, prepared, folds);
  // The punctuation is kept as fragments of its own (without words) to count every fragment's offset.
  let offset = 0;
  return prepared
    .split(CLAUSE_PUNCTUATION_RUNS)
    .map((fragment) => {
      const words = [...fragment.matchAll(WORD)].map((match) => ({
        text: collapseRepeatedLetters(match[0]),
        span: spanOf(origin, offset + match.index, offset + match.index + match[0].length),
      }));
      offset += fragment.length;
      return words;
    })
    .map((words) => joinCompounds(words, vocabulary.compounds))
    .flatMap((words) => splitAtBreaks(words, vocabulary.clauseBreaks))
    .filter((clause) => clause.length > 0);
}

/**
 * For each UTF-16 unit of the prepared text, the original characters it came from. Prepared one
 * character (with its combining marks) at a time; where that differs from preparing the whole
 * (compositions across characters), words keep their text but lose their place.
 */
function originOf(
  text: string,
  prepared: string,
  folds: LetterFolds,
): { start: number; end: number }[] | null {
  const origin: { start: number; end: number }[] = [];
  let pieces = '';
  for (const cluster of text.matchAll(CHARACTER_WITH_MARKS)) {
    const piece = prepare(cluster[0], folds);
    const from = { start: cluster.index, end: cluster.index + cluster[0].length };
    for (let unit = 0; unit < piece.length; unit++) origin.push(from);
    pieces += piece;
  }
  return pieces === prepared ? origin : null;
}

function spanOf(
  origin: { start: number; end: number }[] | null,
  start: number,
  end: number,
): SpannedWord['span'] {
  const first = origin?.[start];
  const last = origin?.[end - 1];
  return first && last ? { start: first.start, end: last.end } : null;
}

function prepare(text: string, folds: LetterFolds): string {
  const prepared = text.normalize('NFKC').toLowerCase().replace(APOSTROPHES_AND_INVISIBLES, '');
  if (folds.size === 0) return prepared;
  return Array.from(prepared, (letter) => folds.get(letter) ?? letter).join('');
}

function collapseRepeatedLetters(word: string): string {
  return word.replace(REPEATED_LETTER, '$1');
}

function joinCompounds(words: readonly SpannedWord[], compounds: ReadonlySet<string>): SpannedWord[] {
  const joined: SpannedWord[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as SpannedWord;
    const next = words[index + 1];
    const compound = next === undefined ? undefined : collapseRepeatedLetters(word.text + next.text);
    if (next !== undefined && compound !== undefined && compounds.has(compound)) {
      const span = word.span && next.span ? { start: word.span.start, end: next.span.end } : null;
      joined.push({ text: compound, span });
      index++;
    } else {
      joined.push(word);
    }
  }
  return joined;
}

function splitAtBreaks(words: readonly SpannedWord[], clauseBreaks: ReadonlySet<string>): SpannedWord[][] {
  const clauses: SpannedWord[][] = [[]];
  for (const word of words) {
    if (clauseBreaks.has(word.text)) clauses.push([]);
    else clauses.at(-1)?.push(word);
  }
  return clauses;
}
