import { describe, expect, it } from 'vitest';
import { LanguageTag, pickLanguage } from './languages';

describe('pickLanguage', () => {
  const supported = ['en', 'es'];

  it('takes the best-weighted language the product has, by its base when a region is asked for', () => {
    expect(pickLanguage('es-MX,es;q=0.9,en;q=0.8', supported)).toBe('es');
    expect(pickLanguage('fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4', supported)).toBe('es');
    expect(pickLanguage('en;q=0.2, es;q=0.7', supported)).toBe('es');
  });

  it('falls back to English when nothing matches or the header is missing or malformed', () => {
    expect(pickLanguage('fr,de;q=0.5', supported)).toBe('en');
    expect(pickLanguage(undefined, supported)).toBe('en');
    expect(pickLanguage(';;,q=x', supported)).toBe('en');
    expect(pickLanguage('es;q=0', supported)).toBe('en');
  });
});

describe('LanguageTag', () => {
  it('accepts language codes with an optional region and refuses anything else', () => {
    expect(LanguageTag.safeParse('es').success).toBe(true);
    expect(LanguageTag.safeParse('pt-BR').success).toBe(true);
    for (const bad of ['', 'ES', 'spanish', 'es_MX', 'es-mx', '../en']) {
      expect(LanguageTag.safeParse(bad).success).toBe(false);
    }
  });
});
