import { describe, expect, it } from 'vitest';
import { WalCheckpoints } from './wal-checkpoints';

const MB = 2 ** 20;

function monitor(limitBytes = 64 * MB) {
  const state = { fails: false, walBytes: 0 };
  const said: string[] = [];
  const checkpoints = new WalCheckpoints({
    checkpoint: async () => {
      if (state.fails)
        throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    },
    walBytes: () => state.walBytes,
    limitBytes,
    events: {
      onFailing: (error, walBytes) => said.push(`failing ${(error as { code: string }).code} ${walBytes}`),
      onRecovered: (walBytes) => said.push(`recovered ${walBytes}`),
    },
  });
  return { state, said, checkpoints };
}

describe('WalCheckpoints', () => {
  it('says once that checkpoints fail, however often they do, and once that they work again', async () => {
    const { state, said, checkpoints } = monitor();
    await checkpoints.run();
    state.fails = true;
    for (let i = 0; i < 20; i++) {
      state.walBytes += MB;
      await checkpoints.run();
    }
    state.fails = false;
    await checkpoints.run();
    await checkpoints.run();
    expect(said).toEqual([`failing SQLITE_READONLY ${MB}`, `recovered ${20 * MB}`]);
  });

  it('keeps the instance ready while failing checkpoints leave the log under its limit, and not past it', async () => {
    const { state, checkpoints } = monitor(64 * MB);
    state.fails = true;
    state.walBytes = 64 * MB;
    await checkpoints.run();
    expect(checkpoints.trouble()).toBeNull();
    state.walBytes = 65 * MB;
    expect(checkpoints.trouble()).toMatch(/checkpoints keep failing .* 65 MB/);
    state.fails = false;
    await checkpoints.run();
    expect(checkpoints.trouble(), 'a log that checkpoints again shrinks on its own').toBeNull();
  });
});
