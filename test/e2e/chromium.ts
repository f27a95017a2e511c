import fs from 'node:fs';

/**
 * The browser the e2e suite drives: Debian's Chromium, never one Playwright downloads (the
 * machines that run this have no internet). CHROMIUM_PATH overrides the location.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium as people run it (package `chromium`): Lighthouse measures pages in it. */
const CHROMIUM_LOCATIONS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Debian's headless shell of the same Chromium release (package `chromium-headless-shell`): the
 * same Blink and V8 without the desktop browser around them, which is what Playwright itself
 * runs headless tests in. Measured on the browser suite, it spends half the CPU of the full
 * browser per test, and the suite finishes about a third sooner on two cores. The tests use it
 * when it is installed and the full browser otherwise.
 */
const HEADLESS_SHELL_LOCATIONS = ['/usr/bin/chromium-headless-shell'];

function firstInstalled(defaults: readonly string[]): string | null {
  const configured = process.env.CHROMIUM_PATH?.trim();
  const candidates = configured ? [configured] : defaults;
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
}

/** The full browser, for measuring pages as people load them. */
export function findChromium(): string | null {
  return firstInstalled(CHROMIUM_LOCATIONS);
}

/** The browser the tests drive: the headless shell when installed, else the full browser. */
export function findTestBrowser(): string | null {
  return firstInstalled([...HEADLESS_SHELL_LOCATIONS, ...CHROMIUM_LOCATIONS]);
}

export function missingChromiumMessage(): string {
  const where = process.env.CHROMIUM_PATH?.trim() || CHROMIUM_LOCATIONS.join(' or ');
  const line = '!'.repeat(78);
  return [
    line,
    `!!  NO CHROMIUM FOUND at ${where}`,
    '!!  The browser tests cannot run. Install it with:',
    '!!  apt-get install -y chromium chromium-headless-shell',
    '!!  (or point CHROMIUM_PATH at a Chromium binary).',
    process.env.CI === 'true'
      ? '!!  CI=true: this is a failure.'
      : '!!  Every browser test is SKIPPED. This run proves nothing about the web app.',
    line,
  ].join('\n');
}
