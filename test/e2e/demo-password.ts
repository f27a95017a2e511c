/**
 * The demo logins' password for the browser tests. The server generates a random one unless
 * DEMO_PASSWORD chooses it; global-setup chooses this one so the specs can sign in as the demo.
 */
export const E2E_DEMO_PASSWORD = 'Quiet-Meadow-Compass-17';
