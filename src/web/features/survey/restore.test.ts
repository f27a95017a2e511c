// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../common/schemas/auth';
import type { SavedDraft, SurveyQuestion } from '../../../common/schemas/surveys';
import { chooseRestored, type RestoreSources, restoreSurvey } from './restore';
import {
  PENDING_ANSWERS_KEY,
  type PendingAnswers,
  readLocalDraft,
  type StoredDraft,
  storePendingAnswers,
  writeLocalDraft,
} from './storage';

const likert = (id: number): SurveyQuestion => ({
  id,
  text: `Question ${id}`,
  question_type: 'likert',
  category: 'general',
  answer_choices: null,
  order: id,
  language: 'en',
});
const QUESTIONS = [likert(1), likert(2), { ...likert(3), question_type: 'text' as const }];

const STUDENT: CurrentUser = {
  is_authenticated: true,
  is_superuser: false,
  is_institution_admin: false,
  email: 'sam@demo.edu',
  name: 'Sam Student',
  institution_name: 'Demo University',
  time_zone: 'UTC',
  role: 'student',
};

const NOON = Date.parse('2026-03-02T12:00:00.000Z');

const local = (answers: Record<string, string>, lastSaved = NOON, email = STUDENT.email): StoredDraft => ({
  template_id: 4,
  student_name: STUDENT.name,
  school_email: email,
  answers,
  lastSaved,
});
const server = (answers: Record<string, string>, savedAt = NOON): SavedDraft => ({
  template_id: 4,
  student_name: STUDENT.name,
  school_email: STUDENT.email,
  answers,
  updated_at: new Date(savedAt).toISOString(),
});
const pending = (answers: Record<string, string>): PendingAnswers => ({
  template_id: 4,
  student_name: 'Riley Visitor',
  school_email: 'riley@demo.edu',
  answers,
  path: '/survey/link/abc123/',
});
const none: RestoreSources = { pending: null, local: null, server: null };

describe('choosing what the survey starts with', () => {
  it('starts empty when nothing was kept', () => {
    expect(chooseRestored(QUESTIONS, STUDENT, none)).toEqual({
      answers: {},
      studentName: '',
      schoolEmail: '',
      source: 'none',
      savedAt: null,
    });
  });

  it('takes the answers kept across a login over any draft', () => {
    const restored = chooseRestored(QUESTIONS, STUDENT, {
      pending: pending({ '1': '5' }),
      local: local({ '1': '1' }, NOON + 60_000),
      server: server({ '1': '2' }, NOON + 120_000),
    });
    expect(restored).toEqual({
      answers: { '1': '5' },
      studentName: 'Riley Visitor',
      schoolEmail: 'riley@demo.edu',
      source: 'pending',
      savedAt: null,
    });
  });

  it('takes the server draft, with its save time, when it is newer than this tab’s copy', () => {
    const restored = chooseRestored(QUESTIONS, STUDENT, {
      ...none,
      local: local({ '1': '1' }, NOON - 1),
      server: server({ '1': '2' }, NOON),
    });
    expect(restored).toMatchObject({ answers: { '1': '2' }, source: 'server' });
    expect(restored.savedAt).toEqual(new Date(NOON));
  });

  it('takes the server draft on a tie: it is already saved there', () => {
    const restored = chooseRestored(QUESTIONS, STUDENT, {
      ...none,
      local: local({ '1': '1' }, NOON),
      server: server({ '1': '2' }, NOON),
    });
    expect(restored.source).toBe('server');
  });

  it('takes this tab’s copy when it is newer, as not yet saved on the server', () => {
    const restored = chooseRestored(QUESTIONS, STUDENT, {
      ...none,
      local: local({ '1': '1', '3': 'Written after the last save' }, NOON + 1),
      server: server({ '1': '2' }, NOON),
    });
    expect(restored).toEqual({
      answers: { '1': '1', '3': 'Written after the last save' },
      studentName: STUDENT.name,
      schoolEmail: STUDENT.email,
      source: 'local',
      savedAt: null,
    });
  });

  it('never shows a copy this tab kept for another account', () => {
    const other = local({ '1': '1' }, NOON + 1, 'someone.else@demo.edu');
    expect(chooseRestored(QUESTIONS, STUDENT, { ...none, local: other }).source).toBe('none');
    expect(
      chooseRestored(QUESTIONS, STUDENT, { ...none, local: other, server: server({ '2': '3' }) }),
    ).toMatchObject({ answers: { '2': '3' }, source: 'server' });
  });

  it('recognises the account’s own copy whatever the case or spacing of its address', () => {
    const own = local({ '1': '1' }, NOON, '  Sam@Demo.EDU ');
    expect(chooseRestored(QUESTIONS, STUDENT, { ...none, local: own }).source).toBe('local');
  });

  it('gives a visitor this tab’s copy, with the name and address they typed', () => {
    const typed = { ...local({ '2': '4' }), student_name: 'Riley', school_email: 'riley@demo' };
    expect(chooseRestored(QUESTIONS, null, { ...none, local: typed })).toMatchObject({
      answers: { '2': '4' },
      studentName: 'Riley',
      schoolEmail: 'riley@demo',
      source: 'local',
    });
  });

  it('keeps only the answers that still fit the survey’s questions', () => {
    const answers = { '1': '4', '2': '9', '3': 'x'.repeat(5001), '99': '3' };
    for (const sources of [
      { ...none, pending: pending(answers) },
      { ...none, local: local(answers) },
      { ...none, server: server(answers) },
    ]) {
      expect(chooseRestored(QUESTIONS, STUDENT, sources).answers).toEqual({ '1': '4' });
    }
  });
});

describe('restoring from this tab', () => {
  beforeEach(() => {
    sessionStorage.clear();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOON);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands over the answers kept across a login once, and leaves the local copy alone', async () => {
    writeLocalDraft(local({ '1': '1' }));
    storePendingAnswers(pending({ '1': '5', '2': '3' }));
    const options = { questions: QUESTIONS, templateId: 4, user: STUDENT, serverDrafts: false };

    expect(await restoreSurvey(options)).toMatchObject({
      answers: { '1': '5', '2': '3' },
      source: 'pending',
    });
    expect(sessionStorage.getItem(PENDING_ANSWERS_KEY)).toBeNull();
    expect(await readLocalDraft(4)).not.toBeNull();
    expect(await restoreSurvey(options)).toMatchObject({ answers: { '1': '1' }, source: 'local' });
  });

  it('restores a visitor’s copy of this survey only', async () => {
    writeLocalDraft({ ...local({ '2': '2' }), student_name: 'Riley', school_email: 'riley@demo.edu' });
    const options = { questions: QUESTIONS, user: null, serverDrafts: false };

    expect(await restoreSurvey({ ...options, templateId: 4 })).toMatchObject({
      answers: { '2': '2' },
      studentName: 'Riley',
      schoolEmail: 'riley@demo.edu',
      source: 'local',
    });
    expect((await restoreSurvey({ ...options, templateId: 5 })).source).toBe('none');
  });
});
