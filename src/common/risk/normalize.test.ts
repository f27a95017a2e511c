import { describe, expect, it } from 'vitest';
import { normalizeWord, toClauses, toSpannedClauses, type Vocabulary } from './normalize';

const vocabulary: Vocabulary = {
  compounds: new Set(['myself', 'none']),
  clauseBreaks: new Set(['but']),
};

describe('normalizeWord', () => {
  it('lowercases, drops apostrophes and collapses doubled letters', () => {
    expect(normalizeWord("Can't")).toBe('cant');
    expect(normalizeWord('KILLL')).toBe('kil');
    expect(normalizeWord('ｋｉｌｌ')).toBe('kil');
  });

  it('reads accented letters as plain ones only where told to', () => {
    const folds = new Map([
      ['á', 'a'],
      ['ñ', 'n'],
    ]);
    expect(normalizeWord('SuicidÁrme', folds)).toBe('suicidarme');
    expect(normalizeWord('daño', folds)).toBe('dano');
    expect(normalizeWord('dan\u0303o', folds)).toBe('dano');
    expect(normalizeWord('daño')).toBe('daño');
  });
});

describe('toClauses', () => {
  it('splits clauses at punctuation and at break words', () => {
    expect(toClauses("I'm fine. Really, I am but tired", vocabulary)).toEqual([
      ['im', 'fine'],
      ['realy'],
      ['i', 'am'],
      ['tired'],
    ]);
  });

  it('treats curly apostrophes, hyphens, emoji and invisible characters like plain text', () => {
    expect(toClauses('I’m self-harm 😢 k\u200Bill', vocabulary)).toEqual([['im', 'self', 'harm', 'kil']]);
  });

  it('joins words students split in two', () => {
    expect(toClauses('hurt my self', vocabulary)).toEqual([['hurt', 'myself']]);
    expect(toClauses('no one', vocabulary)).toEqual([['none']]);
  });

  it('keeps the place of accented words it reads as plain ones', () => {
    const text = 'Quiero hacerme DAÑO';
    const clauses = toSpannedClauses(text, { ...vocabulary, foldedLetters: new Map([['ñ', 'n']]) });
    expect(
      clauses.flat().map((word) => [word.text, word.span && text.slice(word.span.start, word.span.end)]),
    ).toEqual([
      ['quiero', 'Quiero'],
      ['hacerme', 'hacerme'],
      ['dano', 'DAÑO'],
    ]);
  });

  it('returns no clauses for text without words', () => {
    expect(toClauses('  ... !!', vocabulary)).toEqual([]);
  });
});
