import type { Kysely } from 'kysely';
import { allItems, INSTRUMENTS, type InstrumentAnswers, type InstrumentId } from '../../common/instruments';
import { PHQ9_SELF_HARM_ITEM } from '../../common/instruments/phq9';
import type { AnswerValue } from '../../common/schemas/surveys';
import { submissionEvents } from '../app';
import { writerFor } from '../db/transaction-runner';
import type { Database } from '../db/types';
import type { CaseMailContext } from '../features/cases';
import { caseOpener } from '../features/cases';
import { readFollowUpSettings } from '../features/institutions';
import {
  findCurrentTemplate,
  type SubmissionEvents,
  type SurveyTarget,
  submitSurvey,
} from '../features/surveys';
import { listQuestions } from '../features/templates';
import type { SessionUser } from '../lib/sessions';
import { DAY, HOUR, now } from '../lib/time';
import type { SampleResponsesSeeder } from './demo';
import { firstAdmin, firstStudent, openCaseOfSubmission } from './queries';
import { settleSeededCase } from './sample-case-history';
import { seedCaseWork } from './sample-cases';

/**
 * Sample responses for the demo institution: half a year of varied check-ins, stored through
 * the real submission path (screening, rollups, cases and all) with back-dated times, so the demo
 * dashboard shows what a live one would. Seeded random numbers: every demo looks the same.
 */

type Outlook = 'steady' | 'struggling' | 'poor-sleep' | 'crisis';

interface SampleStudent {
  name: string;
  email: string;
  /** How the latest check-in goes; earlier ones are steadier. */
  outlook: Outlook;
  /** A registered student submits as the account; everyone else through the shared link. */
  user?: SessionUser;
}

interface PlannedSubmission {
  student: SampleStudent;
  createdAt: number;
  outlook: Outlook;
  /** A past flagged check-in: its case is followed up and closed at the time (sample-case-history). */
  pastEpisode?: boolean;
  /** Sent as the seed runs (the urgent check-in that has just come in), not back-dated. */
  live?: boolean;
}

const FIRST_NAMES = [
  'Ava',
  'Liam',
  'Maya',
  'Noah',
  'Zoe',
  'Ethan',
  'Priya',
  'Lucas',
  'Amara',
  'Diego',
  'Hana',
  'Owen',
];
const LAST_NAMES = ['Chen', 'Okafor', 'Garcia', 'Novak', 'Patel', 'Reyes', 'Kim', 'Larsen', 'Haddad'];
const STUDENT_COUNT = 32;
const MONTHS = 6;

const WRITTEN_ANSWERS: Record<Outlook, readonly string[]> = {
  steady: [
    'Things are going well overall.',
    'Midterms were busy but manageable.',
    'I joined a club this term and it has helped me settle in.',
    'Nothing else to add, thanks for asking.',
    'Would love more quiet study spaces in the library.',
  ],
  struggling: [
    'Coursework has been piling up and I am behind in two classes.',
    'Work shifts and classes leave me very little time to rest.',
    'I have been feeling isolated since moving here.',
  ],
  'poor-sleep': [
    'My sleep schedule is a mess because of late labs.',
    'Noise in the dorm keeps me up most nights.',
  ],
  crisis: ['It has been a really hard few weeks.'],
};

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = ReturnType<typeof seededRandom>;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

/** One urgent student, a few struggling (elevated), a few sleeping badly (monitor), the rest steady. */
function outlookOf(index: number): Outlook {
  if (index === 0) return 'crisis';
  if (index <= 4) return 'struggling';
  if (index <= 7) return 'poor-sleep';
  return 'steady';
}

/**
 * The flagged episode a student went through before, if any: those struggling now struggled once
 * before, and those sleeping badly now were in crisis once (each followed up and resolved).
 */
function pastEpisodeOf(outlook: Outlook): Outlook | null {
  if (outlook === 'struggling') return 'struggling';
  if (outlook === 'poor-sleep') return 'crisis';
  return null;
}

function sampleStudents(random: Random, demoStudent: SessionUser | undefined): SampleStudent[] {
  const students: SampleStudent[] = [];
  const used = new Set<string>();
  while (students.length < STUDENT_COUNT) {
    const first = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    const email = `${first}.${last}@demo.edu`.toLowerCase();
    if (used.has(email)) continue;
    used.add(email);
    students.push({ name: `${first} ${last}`, email, outlook: outlookOf(students.length) });
  }
  if (demoStudent)
    students.push({ name: demoStudent.name, email: demoStudent.email, outlook: 'steady', user: demoStudent });
  return students;
}

/**
 * Each student checks in most months between their first and their latest check-in; some steady
 * students have not been back lately. Only the latest check-in shows the student's outlook.
 */
function planSubmissions(random: Random, students: SampleStudent[], at: number): PlannedSubmission[] {
  const planned: PlannedSubmission[] = [];
  for (const student of students) {
    const lastMonth = student.outlook === 'steady' && random() < 0.3 ? between(random, 1, 2) : 0;
    const firstMonth = between(random, lastMonth, MONTHS - 1);
    const times: number[] = [];
    for (let monthsAgo = firstMonth; monthsAgo >= lastMonth; monthsAgo--) {
      const skipped = monthsAgo !== lastMonth && monthsAgo !== firstMonth && random() < 0.35;
      if (!skipped)
        times.push(at - (monthsAgo * 30 + between(random, 1, 27)) * DAY - between(random, 0, 12) * HOUR);
    }
    times.sort((a, b) => a - b);
    const episode = pastEpisodeOf(student.outlook);
    times.forEach((createdAt, index) => {
      const isLatest = index === times.length - 1;
      if (isLatest && student.outlook === 'crisis') {
        planned.push({ student, createdAt: at, outlook: student.outlook, live: true });
        return;
      }
      // A hard stretch earlier on, followed up at the time: the institution's case history.
      const pastEpisode = index === 0 && !isLatest && episode !== null;
      const outlook = isLatest ? student.outlook : pastEpisode && episode ? episode : 'steady';
      planned.push({ student, createdAt, outlook, ...(pastEpisode ? { pastEpisode } : {}) });
    });
  }
  // Chronological, so every submission is compared with the one before it, as in real life.
  return planned.sort((a, b) => a.createdAt - b.createdAt);
}

type SampleQuestion = Awaited<ReturnType<typeof listQuestions>>[number];

function likertValue(random: Random, question: SampleQuestion, outlook: Outlook): number {
  if (question.category === 'safety') return outlook === 'crisis' ? 3 : 1;
  if (outlook === 'struggling' || outlook === 'crisis') return between(random, 4, 5);
  if (outlook === 'poor-sleep' && question.category === 'sleep') return between(random, 4, 5);
  return between(random, 1, 3);
}

/**
 * Instrument answers that fit the outlook: steady students answer mostly "Not at all", struggling
 * ones score in the moderate bands, and only the student in crisis answers the self-harm item.
 */
function sampleInstrumentAnswers(
  random: Random,
  instrumentId: InstrumentId,
  outlook: Outlook,
): InstrumentAnswers {
  const answers: Record<string, number> = {};
  for (const item of allItems(INSTRUMENTS[instrumentId])) {
    if (item.id === PHQ9_SELF_HARM_ITEM) answers[item.id] = outlook === 'crisis' ? 1 : 0;
    else if (outlook === 'crisis') answers[item.id] = between(random, 2, 3);
    else if (outlook === 'struggling') answers[item.id] = between(random, 1, 2);
    else answers[item.id] = random() < 0.2 ? 1 : 0;
  }
  return answers;
}

function sampleAnswers(
  random: Random,
  instrumentRandom: Random,
  questions: SampleQuestion[],
  outlook: Outlook,
): Record<string, AnswerValue> {
  return Object.fromEntries(
    questions.map((question) => {
      if (question.instrument_id) {
        return [
          String(question.id),
          sampleInstrumentAnswers(instrumentRandom, question.instrument_id, outlook),
        ];
      }
      return [
        String(question.id),
        question.question_type === 'text'
          ? pick(random, WRITTEN_ANSWERS[outlook])
          : String(likertValue(random, question, outlook)),
      ];
    }),
  );
}

/**
 * Stores the sample check-ins, announced to the app's followers (`events`): the flagged ones are
 * filed in cases as a live submission's would (and the urgent one's alert queued), then some of
 * that case work is done already.
 */
async function seedSampleResponses(
  db: Kysely<Database>,
  institutionId: number,
  events: SubmissionEvents,
): Promise<void> {
  const template = await findCurrentTemplate(db, institutionId);
  if (!template) return;
  const questions = await listQuestions(db, template.id);
  if (questions.length === 0) return;
  const demoStudentRow = await firstStudent(db, institutionId);
  const demoStudent: SessionUser | undefined = demoStudentRow && {
    ...demoStudentRow,
    role: 'student',
    institutionId,
    institutionName: template.institution_name,
    institutionTimeZone: null,
    language: null,
    signInMethod: 'password',
    hasSecondFactor: false,
  };

  const random = seededRandom(20_240_901);
  // Its own sequence, so the instruments leave the other samples as they were.
  const instrumentRandom = seededRandom(20_251_126);
  const runTransaction = writerFor(db);
  // The case history's own sequence, so the answers are the same with or without it.
  const admin = await firstAdmin(db, institutionId);
  const history = admin && {
    worker: { id: admin.id, name: admin.name },
    random: seededRandom(20_261_126),
    settings: await readFollowUpSettings(db, institutionId),
  };
  for (const planned of planSubmissions(random, sampleStudents(random, demoStudent), now())) {
    const { student } = planned;
    const target: SurveyTarget = student.user
      ? { templateId: template.id }
      : { hashLink: template.hash_link };
    await submitSurvey({
      runTransaction,
      target,
      user: student.user ?? null,
      studentName: student.name,
      schoolEmail: student.email,
      answers: sampleAnswers(random, instrumentRandom, questions, planned.outlook),
      createdAt: planned.live ? now() : planned.createdAt,
      addressProven: true,
      events,
    });
    if (planned.pastEpisode) {
      const opened = await openCaseOfSubmission(db, institutionId, planned.createdAt);
      if (opened && history) await settleSeededCase(db, { ...history, caseId: opened.id });
    }
  }
  if (history) await seedCaseWork(db, institutionId, history);
}

/**
 * The sample responses as the demo seed runs them, with cases opened by the real case opener.
 * Their mail (the urgent case's alert) is queued like any; the app's mail worker sends it once it
 * runs, so nothing needs waking.
 */
export function sampleResponsesSeeder(context: CaseMailContext): SampleResponsesSeeder {
  const events = submissionEvents(caseOpener({ ...context, wakeMail: () => {} }));
  return (db, institutionId) => seedSampleResponses(db, institutionId, events);
}
