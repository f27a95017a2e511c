import { describe, expect, it } from 'vitest';
import { requestLanguage, supportedLanguages } from './languages';

describe('languages', () => {
  it('are the folders of catalogues, English among them', () => {
    expect(supportedLanguages()).toEqual(['en', 'es']);
  });

  it('answers a request in the language its person chose, else the one its browser asks for', () => {
    const request = (cookies: Record<string, string>, acceptLanguage?: string) => ({
      cookies,
      headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
    });
    expect(requestLanguage(request({ lang: 'es' }, 'en-US,en'))).toBe('es');
    expect(requestLanguage(request({}, 'es-MX,es;q=0.9'))).toBe('es');
    // A cookie naming a language the product lacks counts for nothing.
    expect(requestLanguage(request({ lang: 'fr' }, 'es'))).toBe('es');
    expect(requestLanguage(request({ lang: 'fr' }))).toBe('en');
    expect(requestLanguage(request({}))).toBe('en');
  });
});
