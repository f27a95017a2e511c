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

/** Spanish answers: a positive for every Spanish entry, with and without accents. */
const spanishPositives: [category: string, sentence: string, severity: TextSeverity][] = [
  ['primera persona', 'Pienso en el suicidio todos los días', 'high'],
  ['primera persona', 'Tengo pensamientos suicidas', 'high'],
  ['primera persona', 'Quiero suicidarme', 'high'],
  ['primera persona', 'Me voy a suicidar', 'high'],
  ['primera persona', 'He vuelto a la autolesión', 'high'],
  ['primera persona', 'Llevo semanas autolesionándome', 'high'],
  ['primera persona', 'Pienso en matarme', 'high'],
  ['primera persona', 'Me quiero matar', 'high'],
  ['primera persona', 'Me quiero morir', 'high'],
  ['primera persona', 'A veces solo quiero morir', 'high'],
  ['primera persona', 'Quiero morirme', 'high'],
  ['primera persona', 'Quisiera morir', 'high'],
  ['primera persona', 'Quiero quitarme la vida', 'high'],
  ['primera persona', 'Quiero acabar con mi vida', 'high'],
  ['primera persona', 'Quiero terminar con todo', 'high'],
  ['primera persona', 'Ya no quiero vivir', 'high'],
  ['primera persona', 'No quiero seguir viviendo así', 'high'],
  ['primera persona', 'Quiero hacerme daño', 'high'],
  ['primera persona', 'Volví a cortarme', 'high'],
  ['primera persona', 'Pensé en tomar una sobredosis', 'high'],
  ['primera persona', 'Quiero tomarme todas las pastillas', 'high'],
  ['primera persona', 'Estaría mejor muerta', 'high'],
  ['primera persona', 'No tengo razón para vivir', 'high'],
  ['primera persona', 'No tengo ninguna razón para vivir', 'high'],
  ['primera persona', 'Le conté a mi amiga que pienso en el suicidio', 'high'],
  ['carga', 'Soy una carga para mi familia', 'high'],
  ['carga', 'Me siento como una carga', 'high'],
  ['sin acentos', 'quiero suicidarme', 'high'],
  ['sin acentos', 'tengo pensamientos suicidas', 'high'],
  ['sin acentos', 'he vuelto a la autolesion', 'high'],
  ['sin acentos', 'quiero hacerme dano', 'high'],
  ['sin acentos', 'estaria mejor muerto', 'high'],
  ['sin acentos', 'no tengo razon para vivir', 'high'],
  ['acentos de más', 'Quiero suicidárme', 'high'],
  ['mayúsculas y letras repetidas', 'ME QUIEROOO MORIIIR', 'high'],
  ['guion', 'pensé en la auto-lesión', 'high'],
  ['negación en otra oración', 'No estoy bien y quiero morir', 'high'],
  ['negación en otra oración', 'No duermo, quiero morir', 'high'],
  ['no puedo / no aguanto', 'No aguanto más quiero morir', 'high'],
  ['no puedo / no aguanto', 'No puedo dejar de pensar en suicidarme', 'high'],
  ['no sé', 'No sé por qué quiero morir', 'high'],
  ['no sé', 'no se porque quiero morir', 'high'],
  ['mezcla de idiomas', "I'm fine pero quiero morir", 'high'],
  ['desesperanza', 'Me siento sin esperanza', 'medium'],
  ['desesperanza', 'Estoy desesperanzada', 'medium'],
  ['desesperanza', 'No valgo nada', 'medium'],
  ['desesperanza', 'No le importo a nadie', 'medium'],
  ['desesperanza', 'A nadie le importo', 'medium'],
  ['negación', 'No quiero morir', 'medium'],
  ['negación', 'No me quiero matar', 'medium'],
  ['negación', 'Nunca pensaría en suicidarme', 'medium'],
  ['negación', 'Jamás intentaría quitarme la vida', 'medium'],
  ['negación', 'jamas intentaria quitarme la vida', 'medium'],
  ['negación', 'No tengo pensamientos suicidas', 'medium'],
  ['negación', 'No soy una carga', 'medium'],
  ['negación', 'Llevo tres meses sin autolesionarme', 'medium'],
  ['otra persona', 'Mi amiga quiere morir', 'medium'],
  ['otra persona', 'Mi hermano se quiere matar', 'medium'],
  ['otra persona', 'Mi amigo habla de suicidio', 'medium'],
  ['otra persona', 'Mi compañero quiere suicidarse', 'medium'],
  ['otra persona', 'Mi novia quiere quitarse la vida', 'medium'],
  ['otra persona', 'Mi amigo va a matarse', 'medium'],
  ['otra persona', 'Mi prima dice que quiere hacerse daño', 'medium'],
];

const spanishNegatives: [category: string, sentence: string][] = [
  ['modismo', 'Me muero de risa'],
  ['modismo', 'Me muero de hambre'],
  ['modismo', 'Me muero de sueño'],
  ['modismo', 'Me muero de ganas de ir al concierto'],
  ['modismo', 'Se muere de ganas de verte'],
  ['modismo', 'Me mata el calor'],
  ['modismo', 'Jugamos cartas para matar el tiempo'],
  ['modismo', 'Quiero matar el tiempo antes del examen'],
  ['modismo', 'Me quiero morir de vergüenza'],
  ['modismo', 'Me quiero morir de risa con ese video'],
  ['modismo', 'Mi mamá va a matarme si repruebo'],
  ['modismo', 'Este examen va a matarme'],
  ['modismo', 'Quiero cortarme el pelo'],
  ['modismo', 'Tengo que cortarme las uñas'],
  ['modismo', 'Tuve una sobredosis de café en exámenes'],
  ['modismo', 'Fuimos a un taller de prevención del suicidio'],
  ['modismo', 'Soy un romántico sin esperanza'],
  ['negación de desesperanza', 'No me siento sin esperanza'],
  ['negación de desesperanza', 'Nunca digo que no valgo nada'],
  ['cotidiano', 'Quiero vivir una vida larga y feliz'],
  ['cotidiano', 'Amo mi vida'],
  ['cotidiano', 'Mi razón para vivir es mi familia'],
  ['cotidiano', 'Tengo que tomar mis pastillas a tiempo'],
  ['cotidiano', 'La carga de trabajo es enorme'],
  ['cotidiano', 'Estoy muy cansada pero bien'],
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

describe('scanText in Spanish', () => {
  it.each(spanishPositives)('finds %s language: %j', (_category, sentence, severity) => {
    expect(scanText(sentence).severity).toBe(severity);
  });

  it.each(spanishNegatives)('finds nothing in %s text: %j', (_category, sentence) => {
    expect(scanText(sentence)).toEqual({ severity: null, matched: [], phrases: [] });
  });

  it('names the phrase as the lexicon writes it, with why it was downgraded', () => {
    expect(scanText('quiero hacerme dano').matched).toEqual(['hacerme daño']);
    expect(scanText('No quiero morir').matched).toEqual(['quiero morir (negated)']);
    expect(scanText('Mi hermano se quiere matar').matched).toEqual(['se quiere matar (about someone else)']);
  });

  it('places the phrase where the student wrote it, accents and all', () => {
    const text = 'La verdad, QUIERO HACERME DAÑO';
    expect(scanText(text).phrases.map(({ start, end }) => text.slice(start, end))).toEqual(['HACERME DAÑO']);
  });
});

describe('the lexicon', () => {
  it('has a version', () => {
    expect(LEXICON_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  // Every written alternative must survive normalisation and match on its own; this catches
  // entries that use filler words, clause breaks, split compounds or unreachable spellings.
  const languages = Object.values(LEXICON.languages);
  it.each(languages.flatMap((language) => language.high.flatMap(variantsOf)))(
    'treats the high phrase %j as high',
    (phrase) => {
      expect(scanText(phrase).severity).toBe('high');
    },
  );

  it.each(languages.flatMap((language) => language.medium.flatMap(variantsOf)))(
    'treats the medium phrase %j as medium',
    (phrase) => {
      expect(scanText(phrase).severity).toBe('medium');
    },
  );

  it.each(languages.flatMap((language) => language.benignIdioms.flatMap(variantsOf)))(
    'treats the idiom %j as harmless',
    (phrase) => {
      expect(scanText(phrase).severity).toBeNull();
    },
  );

  // Each language reads the text on its own: English text reads exactly as the English lexicon
  // alone reads it, so every English expectation above holds as it did before Spanish was added.
  it('reads English text as the English lexicon alone does', () => {
    const english = LEXICON.languages.english;
    const texts = [
      ...positives.map(([, sentence]) => sentence),
      ...negatives.map(([, sentence]) => sentence),
      ...[...english.high, ...english.medium, ...english.benignIdioms].flatMap(variantsOf),
    ];
    for (const text of texts) expect(scanText(text), text).toEqual(scanText(text, [english]));
  });

  it('lists each phrase once', () => {
    const phrases = languages.flatMap((language) => [
      ...language.high,
      ...language.medium,
      ...language.benignIdioms,
    ]);
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
