import { describe, expect, it } from 'vitest';
import { LEXICON } from './lexicon';
import { LEXICON_VERSION, scanText, type TextSeverity } from './scan-text';

const positives: [category: string, sentence: string, severity: TextSeverity][] = [
  ['first person', 'I want to kill myself', 'high'],
  ['first person', "I've been thinking about suicide a lot lately", 'high'],
  ['first person', 'I feel suicidal most nights', 'high'],
  ['first person', 'Sometimes I just want to die', 'high'],
  ['first person', 'I want to end my life', 'high'],
  ['first person', 'I have been hurting myself again', 'high'],
  ['first person', 'I cut myself last week', 'high'],
  ['first person', 'I thought about taking an overdose', 'high'],
  ['first person', 'There is no reason to live anymore', 'high'],
  ['first person', "I'd be better off dead", 'high'],
  ['first person', 'I wish I was dead', 'high'],
  ['first person', "I don't want to live anymore", 'high'],
  ['first person', "I don't even want to be alive", 'high'],
  ['first person', 'I have nothing to live for', 'high'],
  ['first person', 'I keep thinking about jumping off a bridge', 'high'],
  ['first person', 'I took all my pills last night', 'high'],
  ['first person', 'I want to take my own life', 'high'],
  ['first person', "I've been self-harming", 'high'],
  ['first person', "My roommate says I'm suicidal", 'high'],
  ['first person', "I can't stop thinking about killing myself", 'high'],
  ['negation in another clause', "I'm not okay, I want to die", 'high'],
  ['negation in another clause', "I'm not sure why but I want to die", 'high'],
  ['pseudo-negation', "I don't know why I want to die", 'high'],
  ['pseudo-negation', "I've never been so close to ending it all", 'high'],
  ['misspelling', 'i want to kil myself', 'high'],
  ['misspelling', 'honestly i might kms', 'high'],
  ['misspelling', "I'm suicidel", 'high'],
  ['misspelling', 'i think im sucidal', 'high'],
  ['misspelling', 'I want to dye', 'high'],
  ['misspelling', 'i want 2 die', 'high'],
  ['misspelling', 'i wanna die', 'high'],
  ['misspelling', 'I just want to end it all', 'high'],
  ['misspelling', 'I keep thinking I should unalive myself', 'high'],
  ['spacing', 'I want to kill my self', 'high'],
  ['spacing', 'i want to un-alive', 'high'],
  ['repeated letters', 'I want to KILLLLL MYSELF!!!', 'high'],
  ['unicode', 'ｋｉｌｌ ｍｙｓｅｌｆ', 'high'],
  ['unicode', 'I’ve had suicidal thoughts', 'high'],
  ['hopelessness', 'I feel hopeless', 'medium'],
  ['hopelessness', 'i feel sooo hopeless', 'medium'],
  ['hopelessness', "I've never felt so hopeless", 'medium'],
  ['hopelessness', 'I feel completely worthless', 'medium'],
  ['hopelessness', 'I feel trapped', 'medium'],
  ['hopelessness', 'Nothing matters anymore', 'medium'],
  ['hopelessness', "I can't go on like this", 'medium'],
  ['hopelessness', "I can't do this anymore", 'medium'],
  ['passive death wish', 'I wish I had never been born', 'high'],
  ['burden', 'I feel like a burden to my family', 'high'],
  ['burden', 'No one would miss me', 'high'],
  ['burden', 'Everyone would be better off without me', 'high'],
  ['negated', 'I would never hurt myself', 'medium'],
  ['negated', "I'm not suicidal", 'medium'],
  ['negated', "I don't want to die", 'medium'],
  ['negated', 'I have never thought about suicide', 'medium'],
  ['negated', "I'm no longer suicidal", 'medium'],
  ['negated', "I've been 3 months without self harm", 'medium'],
  ['third person', 'My friend wants to kill himself', 'medium'],
  ['third person', 'My roommate talked about suicide', 'medium'],
  ['third person', "I'm worried my sister might hurt herself", 'medium'],
  ['third person', "My brother's friend overdosed last year", 'medium'],
  ['third person', 'She said she wants to die', 'medium'],
  ['third person', 'He tried to end his life', 'medium'],
  ['third person', 'Someone told me to kys', 'medium'],
];

const negatives: [category: string, sentence: string][] = [
  ['idiom', 'This exam is killing me'],
  ['idiom', "I'm dying to see the game this weekend"],
  ['idiom', 'I could kill for a coffee right now'],
  ['idiom', "I'm dead tired after finals"],
  ['idiom', 'I nearly died laughing at that video'],
  ['idiom', 'I killed myself laughing at the comedy show'],
  ['idiom', 'I want to die laughing every time I see that meme'],
  ['idiom', 'I want to die of embarrassment'],
  ['idiom', 'I want to dye my hair blue'],
  ['idiom', 'Ugh I want to dye it purple'],
  ['idiom', 'We went to a suicide prevention workshop'],
  ['idiom', 'Suicide Squad is my favourite movie'],
  ['idiom', 'I overdosed on caffeine during finals week'],
  ['idiom', 'I cut myself shaving this morning'],
  ['idiom', 'I hurt myself playing soccer'],
  ['idiom', 'I accidentally cut myself while cooking'],
  ['idiom', 'I hurt myself at the gym yesterday'],
  ['idiom', 'He hurt himself during practice'],
  ['idiom', 'I ran 5 kms this morning'],
  ['idiom', 'The library is a few kms from my dorm'],
  ['idiom', "I'm a hopeless romantic"],
  ['idiom', "I'm hopeless at chemistry"],
  ['idiom', "I'm trapped in traffic"],
  ['idiom', "I can't go on the trip this year"],
  ['idiom', 'Nothing matters more to me than my family'],
  ['idiom', 'I killed it in my presentation'],
  ['idiom', "I'm dead serious about my grades"],
  ['negated hopelessness', "I don't feel hopeless"],
  ['negated hopelessness', "I'm not a burden to anyone"],
  ['negated hopelessness', "I don't feel worthless anymore"],
  ['word boundary', 'I want to diet before summer'],
  ['word boundary', 'He skims the reading before class'],
  ['word boundary', "I'm harmless, just tired"],
  ['word boundary', 'The killer whale documentary was amazing'],
  ['word boundary', 'Selfish people annoy me'],
  ['word boundary', 'The burden of proof is on them'],
  ['ordinary', 'I feel great this week'],
  ['ordinary', "Sleep has been rough but I'm managing"],
  ['ordinary', 'I love my life'],
  ['ordinary', 'I want to live a long and happy life'],
  ['ordinary', 'I need to take my pills on time'],
  ['ordinary', 'The course is worthless'],
  ['ordinary', 'I need to cut back on caffeine'],
  ['ordinary', ''],
  ['ordinary', '   !!! 🙂 '],
];

describe('scanText', () => {
  it.each(positives)('finds %s language: %j', (_category, sentence, severity) => {
    expect(scanText(sentence).severity).toBe(severity);
  });

  it.each(negatives)('finds nothing in %s text: %j', (_category, sentence) => {
    expect(scanText(sentence)).toEqual({ severity: null, matched: [], phrases: [] });
  });

  it('names the phrases it matched, with why a crisis phrase was downgraded', () => {
    expect(scanText('I want to kill myself').matched).toEqual(['kill myself']);
    expect(scanText('I would never hurt myself').matched).toEqual(['hurt myself (negated)']);
    expect(scanText('My friend wants to kill himself').matched).toEqual([
      'kill himself (about someone else)',
    ]);
  });

  it('takes the most serious finding across clauses', () => {
    const scan = scanText("I'm not suicidal. But honestly I feel hopeless and I want to die.");
    expect(scan.severity).toBe('high');
    expect(scan.matched).toEqual(['suicidal (negated)', 'hopeless', 'want to die']);
  });

  it('only looks a few words back for a negation', () => {
    expect(scanText('no sleep for days now and now i want to die').severity).toBe('high');
    expect(scanText('never in my whole life have i wanted to die').severity).toBe('high');
    expect(scanText('i have never wanted to die').severity).toBe('medium');
  });
});

describe('the lexicon', () => {
  it('has a version', () => {
    expect(LEXICON_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  // Every written alternative must survive normalisation and match on its own; this catches
  // entries that use filler words, clause breaks, split compounds or unreachable spellings.
  it.each(LEXICON.high.flatMap(variantsOf))('treats the high phrase %j as high', (phrase) => {
    expect(scanText(phrase).severity).toBe('high');
  });

  it.each(LEXICON.medium.flatMap(variantsOf))('treats the medium phrase %j as medium', (phrase) => {
    expect(scanText(phrase).severity).toBe('medium');
  });

  it.each(LEXICON.benignIdioms.flatMap(variantsOf))('treats the idiom %j as harmless', (phrase) => {
    expect(scanText(phrase).severity).toBeNull();
  });

  it('lists each phrase once', () => {
    const phrases = [...LEXICON.high, ...LEXICON.medium, ...LEXICON.benignIdioms];
    expect(new Set(phrases).size).toBe(phrases.length);
  });
});

describe('scanText phrases', () => {
  const written = (text: string) =>
    scanText(text).phrases.map((phrase) => [text.slice(phrase.start, phrase.end), phrase.severity]);

  it('places the phrase where the student wrote it', () => {
    expect(written('Honestly I want to die some days.')).toEqual([['want to die', 'high']]);
  });

  it('covers the words as written: doubled letters, split compounds, full-width letters', () => {
    expect(written('I want to KILLL my self!!')).toEqual([['KILLL my self', 'high']]);
    expect(written('ｉ want to ｄｉｅ')).toEqual([['want to ｄｉｅ', 'high']]);
  });

  it('counts from the start of the text across clauses and curly apostrophes', () => {
    expect(written('I’m fine, really. But I want to die')).toEqual([['want to die', 'high']]);
  });

  it('keeps the severity of negated or third-person phrases and lists them in text order', () => {
    expect(written("I don't want to die. I feel hopeless")).toEqual([
      ['want to die', 'medium'],
      ['hopeless', 'medium'],
    ]);
  });

  it('places nothing in harmless text', () => {
    expect(scanText('This homework is killing me').phrases).toEqual([]);
  });
});

/** Each alternative of each position, with the first alternative everywhere else. */
function variantsOf(phrase: string): string[] {
  const slots = phrase.split(' ').map((slot) => slot.split('/').map((word) => (word === '#' ? '5' : word)));
  const variants = slots.flatMap((choices, position) =>
    choices.map((choice) =>
      slots.map((others, index) => (index === position ? choice : others[0])).join(' '),
    ),
  );
  return [...new Set(variants)];
}
