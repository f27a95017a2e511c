import { describe, expect, it } from 'vitest';
import { type BuildManifest, screenChunkKey, screenPreloadTags, shellAssetFiles } from './preload';

// The shape Vite writes to .vite/manifest.json, trimmed to a landing and a survey screen.
const MANIFEST: BuildManifest = {
  'index.html': {
    file: 'assets/index-E1.js',
    isEntry: true,
    imports: ['_shared-S1.js'],
    css: ['assets/index-E1.css'],
  },
  '_shared-S1.js': { file: 'assets/shared-S1.js', css: ['assets/shared-S1.css'] },
  '_Field-F1.js': { file: 'assets/Field-F1.js', imports: ['_shared-S1.js'] },
  '_Modal-M1.js': { file: 'assets/Modal-M1.js', imports: ['_shared-S1.js', '_Field-F1.js'] },
  'features/landing/LandingScreen.tsx': {
    file: 'assets/LandingScreen-L1.js',
    imports: ['_shared-S1.js', '_Field-F1.js'],
    css: ['assets/LandingScreen-L1.css'],
  },
  'features/survey/SurveyScreen.tsx': {
    file: 'assets/SurveyScreen-V1.js',
    imports: ['index.html', '_shared-S1.js', '_Modal-M1.js'],
    css: ['assets/SurveyScreen-V1.css'],
  },
};

describe('screen preloads in the shell', () => {
  it("name the screen's chunk, the chunks it imports and its styles, once each", () => {
    expect(screenPreloadTags(MANIFEST, 'features/survey/SurveyScreen.tsx', '/react-static/')).toBe(
      [
        '<link rel="modulepreload" crossorigin href="/react-static/assets/SurveyScreen-V1.js" />',
        '<link rel="modulepreload" crossorigin href="/react-static/assets/Modal-M1.js" />',
        '<link rel="modulepreload" crossorigin href="/react-static/assets/Field-F1.js" />',
        '<link rel="preload" as="style" crossorigin href="/react-static/assets/SurveyScreen-V1.css" />',
      ].join(''),
    );
  });

  it('leave out what the entry script loads itself', () => {
    const tags = screenPreloadTags(MANIFEST, 'features/landing/LandingScreen.tsx', '/react-static/');
    expect(tags).toContain('LandingScreen-L1.js');
    expect(tags).toContain('LandingScreen-L1.css');
    expect(tags).not.toMatch(/index-E1|shared-S1/);
  });

  it('apply the styles of a screen whose first paint the shell draws', () => {
    const tags = screenPreloadTags(MANIFEST, 'features/landing/LandingScreen.tsx', '/react-static/', {
      applyStyles: true,
    });
    expect(tags).toContain(
      '<link rel="stylesheet" crossorigin href="/react-static/assets/LandingScreen-L1.css" />',
    );
    expect(tags).not.toContain('as="style"');
  });

  it("leave out what the shell's own tags load when the entry's code went into a chunk group", () => {
    // No entry chunk: the shell loads the group's chunk (and what it imports) directly.
    const grouped: BuildManifest = {
      '_app-A1.js': { file: 'assets/app-A1.js', imports: ['_runtime-R1.js'], css: ['assets/app-A1.css'] },
      '_runtime-R1.js': { file: 'assets/runtime-R1.js' },
      '_survey-V1.js': {
        file: 'assets/survey-V1.js',
        imports: ['_runtime-R1.js', '_app-A1.js'],
        css: ['assets/survey-V1.css'],
      },
      'features/survey/SurveyScreen.tsx': {
        file: 'assets/SurveyScreen-S1.js',
        imports: ['_runtime-R1.js', '_app-A1.js', '_survey-V1.js'],
      },
    };
    const shell =
      '<link rel="stylesheet" crossorigin href="/react-static/assets/app-A1.css">' +
      '<script type="module" crossorigin src="/react-static/assets/runtime-R1.js"></script>' +
      '<script type="module" crossorigin src="/react-static/assets/app-A1.js"></script>';
    const tags = screenPreloadTags(grouped, 'features/survey/SurveyScreen.tsx', '/react-static/', {
      loadedByShell: shellAssetFiles(shell, '/react-static/'),
    });
    expect(tags).toBe(
      [
        '<link rel="modulepreload" crossorigin href="/react-static/assets/SurveyScreen-S1.js" />',
        '<link rel="modulepreload" crossorigin href="/react-static/assets/survey-V1.js" />',
        '<link rel="preload" as="style" crossorigin href="/react-static/assets/survey-V1.css" />',
      ].join(''),
    );
  });

  it('are empty for a screen the build does not know', () => {
    expect(screenPreloadTags(MANIFEST, 'features/nowhere/Nothing.tsx', '/react-static/')).toBe('');
  });

  it("finds a screen the build put into a chunk group by the group's chunk, and any other by its own", () => {
    const manifest = {
      _app: { file: 'assets/app-A1.js', isEntry: true },
      '_survey-G1.js': { file: 'assets/survey-G1.js', name: 'survey', imports: ['_app'] },
      '_survey-G1.css': { file: 'assets/survey-G1.css' },
      'features/landing/LandingScreen.tsx': { file: 'assets/LandingScreen-L1.js', name: 'LandingScreen' },
    };
    expect(screenChunkKey(manifest, 'features/survey/SurveyScreen.tsx', 'survey')).toBe('_survey-G1.js');
    expect(screenChunkKey(manifest, 'features/landing/LandingScreen.tsx', 'survey')).toBe(
      'features/landing/LandingScreen.tsx',
    );
    expect(screenChunkKey(manifest, 'features/landing/LandingScreen.tsx')).toBe(
      'features/landing/LandingScreen.tsx',
    );
  });
});
