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
}

// Removed rather than replaced by a space: "don't" must become "dont", and an invisible
// character inside a word must not split it.
const APOSTROPHES_AND_INVISIBLES = /['`\u00b4\u2018\u2019\u02bc\u2032]|\p{Cf}/gu;
const CLAUSE_PUNCTUATION = /[.!?;:,()\n\r\u2013\u2014\u2026]+/u;
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;
// Collapsing every doubled letter (not just long runs) makes "kil" and "kill" the same word.
const REPEATED_LETTER = /(\p{L})\1+/gu;

export function normalizeWord(word: string): string {
  return collapseRepeatedLetters(prepare(word));
}

export function toClauses(text: string, vocabulary: Vocabulary): string[][] {
  return prepare(text)
    .split(CLAUSE_PUNCTUATION)
    .map((fragment) => fragment.split(NON_WORD).filter(Boolean).map(collapseRepeatedLetters))
    .map((words) => joinCompounds(words, vocabulary.compounds))
    .flatMap((words) => splitAtBreaks(words, vocabulary.clauseBreaks))
    .filter((clause) => clause.length > 0);
}

function prepare(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(APOSTROPHES_AND_INVISIBLES, '');
}

function collapseRepeatedLetters(word: string): string {
  return word.replace(REPEATED_LETTER, '$1');
}

function joinCompounds(words: readonly string[], compounds: ReadonlySet<string>): string[] {
  const joined: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] ?? '';
    const next = words[index + 1];
    const compound = next === undefined ? undefined : collapseRepeatedLetters(word + next);
    if (compound !== undefined && compounds.has(compound)) {
      joined.push(compound);
      index++;
    } else {
      joined.push(word);
    }
  }
  return joined;
}

function splitAtBreaks(words: readonly string[], clauseBreaks: ReadonlySet<string>): string[][] {
  const clauses: string[][] = [[]];
  for (const word of words) {
    if (clauseBreaks.has(word)) clauses.push([]);
    else clauses.at(-1)?.push(word);
  }
  return clauses;
}
