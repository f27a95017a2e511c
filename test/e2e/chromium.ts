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

const DEFAULT_LOCATIONS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function findChromium(): string | null {
  const configured = process.env.CHROMIUM_PATH?.trim();
  const candidates = configured ? [configured] : DEFAULT_LOCATIONS;
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
}

export function missingChromiumMessage(): string {
  const where = process.env.CHROMIUM_PATH?.trim() || DEFAULT_LOCATIONS.join(' or ');
  const line = '!'.repeat(78);
  return [
    line,
    `!!  NO CHROMIUM FOUND at ${where}`,
    '!!  The browser tests cannot run. Install it with: apt-get install -y chromium',
    '!!  (or point CHROMIUM_PATH at a Chromium binary).',
    process.env.CI === 'true'
      ? '!!  CI=true: this is a failure.'
      : '!!  Every browser test is SKIPPED. This run proves nothing about the web app.',
    line,
  ].join('\n');
}
