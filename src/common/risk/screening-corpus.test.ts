import { describe, expect, it } from 'vitest';
import { screenSubmission } from './screen';
import type { RiskTier } from './tiers';

/**
 * What a written answer alone makes of a submission, as a counsellor would expect it. Urgent
 * covers the wording of ASQ questions 1-3 and PHQ-9 item 9 and the paraphrases students use for
 * them (a passive wish to die is a positive suicide screen); elevated covers hopelessness, and
 * crisis language that is negated or about someone else; clear covers the everyday idioms that
 * share crisis words. A change to the lexicon that moves any of these fails here.
 */
const corpus: [tier: RiskTier, group: string, answer: string][] = [
  ['urgent', 'active ideation', 'Honestly I want to die some days.'],
  ['urgent', 'active ideation', "I've been thinking about killing myself"],
  ['urgent', 'active ideation', 'I have thoughts of suicide most nights'],
  ['urgent', 'active ideation', 'I want to end my life'],
  ['urgent', 'active ideation', "I've started cutting myself again"],
  ['urgent', 'active ideation', 'I might take all my pills tonight'],
  ['urgent', 'passive death wish', 'I wish I could just disappear forever and never wake up'],
  ['urgent', 'passive death wish', 'I wish I was dead'],
  ['urgent', 'passive death wish', "Some days I've wished I were dead"],
  ['urgent', 'passive death wish', 'I wish I could die'],
  ['urgent', 'passive death wish', 'I hope I die in my sleep'],
  ['urgent', 'passive death wish', "I hope I don't wake up tomorrow"],
  ['urgent', 'passive death wish', 'I want to go to sleep and never wake up'],
  ['urgent', 'passive death wish', "I don't want to wake up anymore"],
  ['urgent', 'passive death wish', 'I wish I had never been born'],
  ['urgent', 'passive death wish', "I wish I didn't exist"],
  ['urgent', 'passive death wish', "I just don't want to be here anymore"],
  ['urgent', 'passive death wish', "I'm so tired of living"],
  ['urgent', 'passive death wish', "I'm tired of being alive"],
  ['urgent', 'passive death wish', "Life isn't worth living"],
  ['urgent', 'passive death wish', 'I want to stop existing'],
  ['urgent', 'no reason to live', "There's no reason to live"],
  ['urgent', 'no reason to live', 'I have nothing to live for'],
  ['urgent', 'no reason to live', "I can't see any point in living"],
  ['urgent', 'no reason to live', "I can't go on living like this"],
  ['urgent', 'burden to others', 'Everyone would be better off without me'],
  ['urgent', 'burden to others', 'My family would be better off if I was gone'],
  ['urgent', 'burden to others', "They'd all be better off if I wasn't around"],
  ['urgent', 'burden to others', "I'd be better off dead"],
  ['urgent', 'burden to others', 'No one would miss me if I was gone'],
  ['urgent', 'burden to others', "I'm a burden to everyone"],
  ['urgent', 'burden to others', 'I feel like such a burden on my parents'],
  ['urgent', 'wanting to disappear', 'I want to disappear'],
  ['urgent', 'wanting to disappear', 'Sometimes I wish I could disappear'],
  ['urgent', 'wanting to disappear', 'i just wanna disappear'],
  ['urgent', 'spelling', 'i wish i wasnt alive'],
  ['urgent', 'spelling', 'i want 2 die'],
  ['elevated', 'hopelessness', 'I feel hopeless about everything'],
  ['elevated', 'hopelessness', "I can't do this anymore"],
  ['elevated', 'hopelessness', 'I feel trapped and worthless'],
  ['elevated', 'hopelessness', 'Nobody cares about me'],
  ['elevated', 'hopelessness', "There's no way out"],
  ['elevated', 'negated', "I'm not suicidal, just exhausted"],
  ['elevated', 'negated', 'I would never hurt myself'],
  ['elevated', 'negated', "I don't want to die, I want things to change"],
  ['elevated', 'negated', "I don't wish I was dead anymore"],
  ['elevated', 'negated', 'I have never wished I were dead'],
  ['elevated', 'negated', "I'm not a burden to my family, they tell me so"],
  ['elevated', 'about someone else', 'My roommate said she wants to kill herself'],
  ['elevated', 'about someone else', 'My friend feels like a burden to everyone'],
  ['elevated', 'about someone else', "I'm worried my brother wants to disappear"],
  ['elevated', 'about someone else', 'He said he is tired of living'],
  ['none', 'idiom', "I'm dying to see the game"],
  ['none', 'idiom', 'This homework is killing me'],
  ['none', 'idiom', 'I could kill for a coffee'],
  ['none', 'idiom', 'I nearly died laughing'],
  ['none', 'idiom', "I'm dead tired"],
  ['none', 'idiom', 'I want to dye my hair'],
  ['none', 'idiom', 'I never wake up on time for my 8am'],
  ['none', 'idiom', "I don't want to wake up early on Saturdays"],
  ['none', 'idiom', 'I want to disappear for the weekend and sleep'],
  ['none', 'idiom', 'I want to disappear into my books until finals are over'],
  ['none', 'idiom', 'I wish my headaches would disappear'],
  ['none', 'idiom', "I'm a hopeless romantic"],
  ['none', 'idiom', 'I killed it in my presentation'],
  ['none', 'ordinary', 'I love my life'],
  ['none', 'ordinary', 'I want to live a long and happy life'],
  ['none', 'ordinary', "I'm not a burden to anyone"],
  ['none', 'ordinary', 'Classes are fine, sleep could be better'],
  ['none', 'ordinary', "I'm tired of living in this noisy dorm"],
];

describe('the screening corpus', () => {
  it('is large enough to review the lexicon against', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    for (const tier of ['urgent', 'elevated', 'none'] as const) {
      expect(corpus.filter(([expected]) => expected === tier).length).toBeGreaterThanOrEqual(12);
    }
  });

  it.each(corpus)('screens as %s (%s): %j', (tier, _group, answer) => {
    const result = screenSubmission({
      answers: [{ questionType: 'text', category: 'general', value: answer }],
    });
    expect(result.tier).toBe(tier);
  });
});
