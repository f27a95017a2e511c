import { describe, expect, it } from 'vitest';
import { RECONNECT_MAX_DELAY_MS, reconnectDelay } from './useDashboardEvents';

describe('live updates reconnect delay', () => {
  it('starts at one second, doubles with each failure in a row, and stops growing at the cap', () => {
    expect([1, 2, 3, 4, 5].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(reconnectDelay(6)).toBe(RECONNECT_MAX_DELAY_MS);
    expect(reconnectDelay(60)).toBe(RECONNECT_MAX_DELAY_MS);
  });
});
