// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PENDING_ANSWERS_KEY,
  readLocalDraft,
  removeLocalDraft,
  storePendingAnswers,
  takePendingAnswers,
  writeLocalDraft,
} from './storage';

const SAVED_AT = new Date('2026-03-02T09:30:00Z');
const DRAFT = {
  template_id: 7,
  student_name: 'Riley Visitor ',
  school_email: 'riley@demo.',
  answers: { '1': '4', '3': 'Half a thought ' },
};
const PENDING = { ...DRAFT, path: '/survey/link/abc123/' };

function stored(key: string): unknown {
  const raw = sessionStorage.getItem(key);
  return raw === null ? null : JSON.parse(raw);
}

let logged: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  sessionStorage.clear();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(SAVED_AT);
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('local draft', () => {
  it('is kept under its template key as the spec describes it: the draft and when it was saved', async () => {
    writeLocalDraft(DRAFT);
    expect(stored('wellness-survey-draft:7')).toEqual({ ...DRAFT, lastSaved: SAVED_AT.getTime() });
    expect(sessionStorage).toHaveLength(1);
  });

  it('reads back exactly as written, half-typed name and address included', async () => {
    writeLocalDraft(DRAFT);
    expect(await readLocalDraft(7)).toEqual({ ...DRAFT, lastSaved: SAVED_AT.getTime() });
  });

  it('is one per template: another survey has none, and a later write replaces the earlier', async () => {
    writeLocalDraft(DRAFT);
    writeLocalDraft({ ...DRAFT, template_id: 8, answers: { '5': '1' } });
    expect(await readLocalDraft(9)).toBeNull();

    vi.setSystemTime(SAVED_AT.getTime() + 60_000);
    writeLocalDraft({ ...DRAFT, answers: { '1': '2' } });
    expect(await readLocalDraft(7)).toEqual({
      ...DRAFT,
      answers: { '1': '2' },
      lastSaved: SAVED_AT.getTime() + 60_000,
    });
    expect((await readLocalDraft(8))?.answers).toEqual({ '5': '1' });
  });

  it('is removed for its template only', async () => {
    writeLocalDraft(DRAFT);
    writeLocalDraft({ ...DRAFT, template_id: 8 });
    removeLocalDraft(7);
    expect(await readLocalDraft(7)).toBeNull();
    expect(sessionStorage.getItem('wellness-survey-draft:7')).toBeNull();
    expect(await readLocalDraft(8)).not.toBeNull();
  });

  it('is ignored when the entry under the key names another template', async () => {
    sessionStorage.setItem(
      'wellness-survey-draft:7',
      JSON.stringify({ ...DRAFT, template_id: 8, lastSaved: SAVED_AT.getTime() }),
    );
    expect(await readLocalDraft(7)).toBeNull();
  });

  it.each([
    ['text that is not JSON', '{"template_id": 7,'],
    ['JSON that is not an object', '"a draft"'],
    ['a draft without its save time', JSON.stringify(DRAFT)],
    ['a save time that is not a number', JSON.stringify({ ...DRAFT, lastSaved: '2026-03-02' })],
    ['answers that are not text', JSON.stringify({ ...DRAFT, answers: { '1': 4 }, lastSaved: 1 })],
    ['no answers at all', JSON.stringify({ ...DRAFT, answers: undefined, lastSaved: 1 })],
    [
      'a template id that is not a whole number',
      JSON.stringify({ ...DRAFT, template_id: 7.5, lastSaved: 1 }),
    ],
  ])('is not restored from %s', async (_case, raw) => {
    sessionStorage.setItem('wellness-survey-draft:7', raw);
    expect(await readLocalDraft(7)).toBeNull();
  });

  it('costs only the convenience when storage is switched off: nothing throws, the failure is logged', async () => {
    // What a browser with site data blocked does on every use of session storage.
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    });
    expect(() => writeLocalDraft(DRAFT)).not.toThrow();
    expect(await readLocalDraft(7)).toBeNull();
    expect(() => removeLocalDraft(7)).not.toThrow();
    expect(() => storePendingAnswers(PENDING)).not.toThrow();
    expect(await takePendingAnswers(7)).toBeNull();
    expect(logged).toHaveBeenCalledTimes(5);
  });

  it('keeps the earlier copy when a write does not fit', async () => {
    writeLocalDraft(DRAFT);
    const real = window.sessionStorage;
    const full = {
      getItem: (key: string) => real.getItem(key),
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: (key: string) => real.removeItem(key),
    };
    vi.spyOn(window, 'sessionStorage', 'get').mockReturnValue(full as unknown as Storage);
    vi.setSystemTime(SAVED_AT.getTime() + 60_000);
    expect(() => writeLocalDraft({ ...DRAFT, answers: { '1': '1' } })).not.toThrow();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(await readLocalDraft(7)).toEqual({ ...DRAFT, lastSaved: SAVED_AT.getTime() });
  });
});

describe('pending answers (kept across a login)', () => {
  it('are handed over once, with the path they belong to, and leave storage as they are', async () => {
    storePendingAnswers(PENDING);
    expect(stored(PENDING_ANSWERS_KEY)).toEqual(PENDING);
    expect(await takePendingAnswers(7)).toEqual(PENDING);
    expect(sessionStorage.getItem(PENDING_ANSWERS_KEY)).toBeNull();
    expect(await takePendingAnswers(7)).toBeNull();
  });

  it('for another survey stay where they are', async () => {
    storePendingAnswers(PENDING);
    expect(await takePendingAnswers(8)).toBeNull();
    expect(stored(PENDING_ANSWERS_KEY)).toEqual(PENDING);
  });

  it('are not handed over without the path or in a shape that is not a draft', async () => {
    const { path: _path, ...withoutPath } = PENDING;
    sessionStorage.setItem(PENDING_ANSWERS_KEY, JSON.stringify(withoutPath));
    expect(await takePendingAnswers(7)).toBeNull();
    sessionStorage.setItem(PENDING_ANSWERS_KEY, JSON.stringify({ ...PENDING, answers: ['4'] }));
    expect(await takePendingAnswers(7)).toBeNull();
  });

  it('do not touch the local draft of the same survey', async () => {
    writeLocalDraft(DRAFT);
    storePendingAnswers(PENDING);
    await takePendingAnswers(7);
    expect(await readLocalDraft(7)).toEqual({ ...DRAFT, lastSaved: SAVED_AT.getTime() });
  });
});
