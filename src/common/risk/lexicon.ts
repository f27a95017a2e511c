/**
 * The crisis-language lexicon behind scanText. It is data, reviewed like policy: bump `version`
 * with every change so each stored screening can be traced to the lexicon that produced it, and
 * add a positive or negative example to scan-text.test.ts for every entry.
 *
 * Phrase syntax: words separated by single spaces; "a/b" accepts either word at that position;
 * "#" accepts any number. Phrases are normalised exactly like student text (lowercase, no
 * apostrophes, doubled letters collapsed), so write them in plain spelling: "kill myself" also
 * matches "kil myself" and "KILLL MYSELF". In a phrase, "myself" and "my" also match the
 * other-person forms listed in `otherPersonForms`; such a match is about someone else.
 *
 * Each language has its own phrases and cues, and reads every answer whatever language it was
 * given in (students mix languages). Spanish folds á é í ó ú ü ñ to plain letters on both sides,
 * as phones often drop accents: write Spanish entries with their accents ("hacerme daño") and they
 * also match "hacerme dano". Spanish entries are translations of English ones and, like every
 * other entry, await review by the clinical lead.
 */
interface Lexicon {
  version: string;
  languages: { readonly english: LanguageLexicon; readonly spanish: LanguageLexicon };
}

export interface LanguageLexicon {
  /** First-person and not negated: urgent. Negated or about someone else: medium. */
  high: readonly string[];
  /** Hopelessness and burden language. Dropped when negated ("I don't feel hopeless"). */
  medium: readonly string[];
  /** Everyday phrases that overlap crisis words; a crisis match overlapping one is ignored. */
  benignIdioms: readonly string[];
  negationCues: readonly string[];
  /** How many words before a phrase a negation cue still applies to. */
  negationWindow: number;
  /** Phrases whose negation word does not negate what follows ("I've never felt so hopeless"). */
  pseudoNegations: readonly string[];
  firstPersonCues: readonly string[];
  thirdPersonCues: readonly string[];
  otherPersonForms: Readonly<Record<string, readonly string[]>>;
  /** Intensifiers skipped when matching, so "I feel so worthless" matches "feel worthless". */
  fillers: readonly string[];
  clauseBreaks: readonly string[];
  compounds: readonly string[];
  /** Lowercase letters read as another letter, in the student's text and in entries alike. */
  foldedLetters: Readonly<Record<string, string>>;
}

const ENGLISH: LanguageLexicon = {
  high: [
    'suicide/suicidal/suicidel/suicidle/suicdal/sucidal/suisidal/sucide/suicde/suiside',
    'kill/killing/killed/hurt/hurting/harm/harming/cut/cutting/hang/hanging/shoot/shooting/drown myself',
    'kms',
    'unalive/unalived/unaliving',
    'self harm/harms/harming/harmed',
    'selfharm/selfharming',
    'end/ending/ended my life',
    'end/ending it all',
    'take/taking my own life',
    'want/wants/wanted to/2 die/dye',
    'wanna die/dye',
    'want/wants/wanted to be dead',
    'better off dead',
    'dont/doesnt want to live/exist',
    'dont/doesnt want to be alive',
    'no reason to live',
    'nothing to live for',
    'no point in living',
    'overdose/overdosed/overdosing',
    'take/taking/took all my pills/meds/medication',
    'take/taking/took too many pills',
    'slit/slitting my wrist/wrists',
    'jump/jumping off a/the bridge/roof/building',
    'jump/jumping in front of a train',
    // Passive death wish, worded after ASQ question 1 ("wished you were dead") and PHQ-9 item 9
    // ("better off dead"), with the paraphrases students write: a positive suicide screen.
    'wish/wished/wishing i was/were dead',
    'wish/wished/wishing i could/would die',
    'wish/wished/wishing i was/were/wasnt/werent never born',
    'wish/wished/wishing i had/hadnt never been born',
    'wish/wished/wishing i didnt/wouldnt exist',
    'wish/wished/wishing i wasnt/werent alive',
    'hope/hoping i die',
    'hope/hoping/wish/wishing i dont/didnt/wont/wouldnt/never wake up',
    'never wake up',
    'dont/doesnt want to wake up',
    'dont/doesnt want to be here/around anymore',
    'dont/doesnt want to exist anymore',
    'want/wants/wanted/wanting to stop existing',
    'tired of living',
    'tired of being alive',
    'life isnt/aint worth living',
    'life is not worth living',
    'no point in/to living',
    'see any/the point in/of living',
    'whats the point of/in living',
    'no reason to keep going/living/trying',
    'cant/cannot go on living',
    // Perceived burden on others, worded after ASQ question 2 ("you or your family would be
    // better off if you were dead").
    'better off without me',
    'better off if i was/were dead/gone',
    'better off if i wasnt/werent here/around/alive',
    'better off if i died',
    'nobody/noone would miss me',
    'feel/feeling/felt/feels like a burden',
    'im/am a burden',
    'a burden to/on my/everyone/everybody/others/people/family/friends/parents',
    // Wanting to disappear, as students write a wish not to exist.
    'want/wants/wanted/wanting to disappear',
    'wanna disappear',
    'wish/wished/wishing i could disappear',
    'disappear forever',
  ],

  medium: [
    'hopeless/hopelessness',
    'a burden',
    'cant/cannot go on',
    'cant/cannot do this/it anymore',
    'cant/cannot take it/this anymore',
    'nothing matters',
    'feel/feeling/felt/am/im worthless',
    'worthless person/human/failure',
    'feel/feeling/felt/am/im trapped',
    'no way out',
    'give/gave/giving/given up on life',
    'nobody/noone cares about me',
    'kys',
  ],

  benignIdioms: [
    'kill/killing/killed myself laughing',
    'die laughing',
    'die of embarrassment/boredom/laughter',
    'dye my/your/his/her/their/our/the/a/it/some/hair',
    'suicide prevention/awareness/squad',
    'overdose/overdosed/overdosing on caffeine/coffee/sugar/candy/chocolate',
    'accidentally cut/hurt myself',
    'cut/hurt myself shaving/cooking/playing/running/skiing/training/lifting/climbing',
    'hurt myself at/in/during practice/training',
    'hurt myself at the gym',
    '# kms',
    'few/many/several/couple kms',
    'kms away/from',
    'hopeless romantic/romantics',
    'hopeless at/with',
    'trapped in traffic',
    'trapped in the/an/a elevator/lift',
    'cant/cannot go on a/the trip/holiday/vacation/tour/date/hike',
    'cant/cannot go on trips/holiday/vacation/dates',
    'nothing matters more',
    'never wake up on/in/before/until/for/early/rested/refreshed/at',
    'dont/doesnt want to wake up early/for/at/before',
    'disappear for the/a/one weekend/week/day/few/couple',
    'disappear into my/a/the book/books/room/bed/work/music',
    'tired of living in/with/at/on/here/near/off',
  ],

  negationCues: [
    'not',
    'no',
    'never',
    'nor',
    'neither',
    'without',
    'dont',
    'doesnt',
    'didnt',
    'wont',
    'wouldnt',
    'shouldnt',
    'isnt',
    'arent',
    'wasnt',
    'werent',
    'havent',
    'hasnt',
    'hadnt',
  ],
  negationWindow: 5,
  pseudoNegations: ['never felt/been so/this/more/as', 'not only', 'not sure', 'dont know'],

  firstPersonCues: ['i', 'im', 'ive', 'id', 'ill', 'me', 'my', 'mine', 'myself'],
  thirdPersonCues: [
    'he',
    'she',
    'they',
    'hes',
    'shes',
    'theyre',
    'theyve',
    'him',
    'her',
    'them',
    'his',
    'their',
    'someone',
    'somebody',
    'people',
    'friend',
    'friends',
    'roommate',
    'roommates',
    'classmate',
    'classmates',
    'teammate',
    'teammates',
    'brother',
    'brothers',
    'sister',
    'sisters',
    'mom',
    'moms',
    'mum',
    'mums',
    'dad',
    'dads',
    'mother',
    'father',
    'parent',
    'parents',
    'cousin',
    'cousins',
    'boyfriend',
    'girlfriend',
    'partner',
  ],
  otherPersonForms: {
    myself: ['himself', 'herself', 'themselves', 'themself', 'yourself'],
    my: ['his', 'her', 'their', 'your'],
  },

  fillers: [
    'so',
    'really',
    'very',
    'just',
    'even',
    'ever',
    'literally',
    'actually',
    'honestly',
    'seriously',
    'truly',
    'totally',
    'completely',
    'pretty',
    'kinda',
    'sorta',
  ],
  clauseBreaks: ['and', 'but', 'however', 'although', 'though', 'whereas', 'except', 'because'],
  compounds: [
    'myself',
    'himself',
    'herself',
    'themselves',
    'themself',
    'yourself',
    'noone',
    'unalive',
    'overdose',
  ],
  foldedLetters: {},
};

// Spanish drops subject pronouns ("quiero morir" is "I want to die"), so the verb's own form
// tells who is meant: first-person verbs are first-person cues, and "quiero" has third-person
// forms like "myself" has. "él" is left out as a cue: typed without its accent it is "el" ("the").
const SPANISH: LanguageLexicon = {
  high: [
    'suicidio/suicidios/suicida/suicidas/suicidar/suicidarme',
    'autolesión/autolesiones/autolesionarme/autolesionándome',
    // Not marked first person: "va a matarme" ("is going to kill me") is an idiom below, and
    // marking would make the idiom shield "va a matarse" ("is going to kill himself") too.
    'matarme/matarse',
    'me quiero matar/morir/suicidar',
    'quiero/quisiera/quería morir/morirme',
    'quitarme la vida',
    'acabar/terminar con mi vida',
    'acabar/terminar con todo',
    'no quiero vivir/existir',
    'no quiero seguir viviendo',
    'hacerme daño',
    'cortarme',
    'sobredosis',
    'tomarme todas las/mis pastillas/píldoras/medicinas/medicamentos',
    'mejor muerto/muerta/muertos/muertas',
    'no tengo/hay razón/razones/motivo/motivos para vivir',
    'no tengo/hay ninguna razón/motivo para vivir',
    // Perceived burden, as "I'm a burden" and "feel like a burden" above (ASQ question 2).
    'soy una carga',
    'me siento una carga',
    'me siento como una carga',
  ],

  medium: [
    'sin esperanza/esperanzas',
    'desesperanza/desesperanzado/desesperanzada',
    'no valgo nada',
    'no le importo a nadie',
    'a nadie le importo',
  ],

  benignIdioms: [
    'morir/morirme de risa/vergüenza/aburrimiento/hambre/sueño/ganas/calor/frío',
    'va/van/vas/iba/iban a matarme',
    'cortarme el pelo/cabello/flequillo/fleco',
    'cortarme la barba',
    'cortarme las uñas',
    'sobredosis de café/cafeína/azúcar/chocolate/dulces',
    'prevención del/de suicidio',
    'escuadrón/atentado/terrorista suicida',
    'romántico/romántica sin esperanza',
  ],

  negationCues: ['no', 'nunca', 'jamás', 'ni', 'tampoco', 'sin'],
  negationWindow: 5,
  // "no puedo" and "no aguanto" are "can't", which does not negate in English either.
  pseudoNegations: [
    'no sé por/porque/qué/si/cómo/cuándo/dónde',
    'no solo/solamente',
    'no estoy segura/seguro',
    'no puedo/podía/aguanto/soporto',
    'nunca me he/había sentido tan/más',
  ],

  firstPersonCues: [
    'yo',
    'me',
    'mi',
    'mis',
    'conmigo',
    'mío',
    'mía',
    'estoy',
    'soy',
    'tengo',
    'quiero',
    'pienso',
    'pensé',
    'siento',
    'creo',
    'necesito',
    'he',
    'voy',
  ],
  thirdPersonCues: [
    'ella',
    'ellas',
    'ellos',
    'su',
    'sus',
    'alguien',
    'gente',
    'amigo',
    'amiga',
    'amigos',
    'amigas',
    'compañero',
    'compañera',
    'compañeros',
    'compañeras',
    'hermano',
    'hermana',
    'hermanos',
    'hermanas',
    'mamá',
    'papá',
    'madre',
    'padre',
    'padres',
    'primo',
    'prima',
    'primos',
    'primas',
    'novio',
    'novia',
    'pareja',
  ],
  otherPersonForms: {
    me: ['se'],
    mi: ['su'],
    mis: ['sus'],
    quiero: ['quiere', 'quieren'],
    suicidarme: ['suicidarse'],
    autolesionarme: ['autolesionarse'],
    morirme: ['morirse'],
    quitarme: ['quitarse'],
    hacerme: ['hacerse'],
    cortarme: ['cortarse'],
    tomarme: ['tomarse'],
  },

  fillers: [
    'tan',
    'muy',
    'mucho',
    'realmente',
    'literalmente',
    'sinceramente',
    'honestamente',
    'totalmente',
    'completamente',
    'simplemente',
    'solamente',
  ],
  clauseBreaks: ['y', 'e', 'pero', 'sino', 'aunque', 'porque', 'excepto', 'salvo'],
  compounds: ['autolesion', 'autolesiones'],
  foldedLetters: { á: 'a', é: 'e', í: 'i', ó: 'o', ú: 'u', ü: 'u', ñ: 'n' },
};

export const LEXICON: Lexicon = {
  version: '1.2.0',
  languages: { english: ENGLISH, spanish: SPANISH },
};
