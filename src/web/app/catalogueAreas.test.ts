import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueAreaOf } from './catalogueAreas';

describe('catalogueAreaOf', () => {
  it('puts each piece of the app in the catalogue of the code that carries it', () => {
    expect(catalogueAreaOf('app/Header.tsx')).toBe('app');
    expect(catalogueAreaOf('features/not-found/NotFoundScreen.tsx')).toBe('app');
    expect(catalogueAreaOf('features/survey/likert.ts')).toBe('app');
    expect(catalogueAreaOf('features/survey/SurveyForm.tsx')).toBe('survey');
    expect(catalogueAreaOf('features/crisis/CrisisSupport.tsx')).toBe('survey');
    expect(catalogueAreaOf('features/auth/LoginScreen.tsx')).toBe('sign-in');
    expect(catalogueAreaOf('features/landing/LandingScreen.tsx')).toBe('landing');
    expect(catalogueAreaOf('features/cases/CaseScreen.tsx')).toBe('staff');
    expect(catalogueAreaOf('features/surveyor/X.tsx')).toBe('staff');
  });

  it('is the area every route of the app loads its screen with', () => {
    const routes = fs.readFileSync(path.join(import.meta.dirname, 'routes.tsx'), 'utf8');
    const screens = [...routes.matchAll(/lazyScreen\('([\w-]+)',\s*\(\)\s*=>\s*import\('\.\.\/([^']+)'\)/g)];
    expect(screens.length).toBeGreaterThan(20);
    for (const [, area, screen] of screens)
      expect([screen, area]).toEqual([screen, catalogueAreaOf(`${screen}.tsx`)]);
  });
});
