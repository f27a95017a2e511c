import type { CurrentUser } from '../../../common/schemas/auth';
import type { SavedDraft, SurveyEntry } from '../../../common/schemas/surveys';
import { type AnswerMap, answersFitting } from './answers';
import { type PendingAnswers, readLocalDraft, type StoredDraft, takePendingAnswers } from './storage';
import { loadDraft } from './surveyApi';

interface RestoredSurvey {
  answers: AnswerMap;
  /** Name and email typed by an anonymous respondent; a logged-in user's come from the account. */
  studentName: string;
  schoolEmail: string;
  /** Where the answers came from; "server" means they are already saved there. */
  source: 'pending' | 'server' | 'local' | 'none';
  savedAt: Date | null;
}

/** What the survey could start with; each is null where there is none. */
export interface RestoreSources {
  /** Answers kept while the student logged in (spec section 4). */
  pending: PendingAnswers | null;
  /** This tab's copy of the draft. */
  local: StoredDraft | null;
  /** The logged-in student's draft on the server. */
  server: SavedDraft | null;
}

const NOTHING: RestoredSurvey = {
  answers: {},
  studentName: '',
  schoolEmail: '',
  source: 'none',
  savedAt: null,
};

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * What the survey starts with: answers kept while the student logged in come first; otherwise
 * the newest of the server draft and this tab's local copy (the server's on a tie, as it is
 * already saved there). A local copy written for someone else (another account used in this
 * tab) is never shown. Only answers that still fit the survey's questions are kept.
 */
export function chooseRestored(
  questions: readonly SurveyEntry[],
  user: CurrentUser | null,
  { pending, local: storedLocal, server }: RestoreSources,
): RestoredSurvey {
  if (pending) {
    return {
      answers: answersFitting(questions, pending.answers),
      studentName: pending.student_name,
      schoolEmail: pending.school_email,
      source: 'pending',
      savedAt: null,
    };
  }

  const local =
    storedLocal && (!user || sameEmail(storedLocal.school_email, user.email)) ? storedLocal : null;
  const serverTime = server ? Date.parse(server.updated_at) : Number.NEGATIVE_INFINITY;
  if (server && (!local || serverTime >= local.lastSaved)) {
    return {
      answers: answersFitting(questions, server.answers),
      studentName: server.student_name,
      schoolEmail: server.school_email,
      source: 'server',
      savedAt: new Date(serverTime),
    };
  }
  if (local) {
    return {
      answers: answersFitting(questions, local.answers),
      studentName: local.student_name,
      schoolEmail: local.school_email,
      source: 'local',
      savedAt: null,
    };
  }
  return NOTHING;
}

interface RestoreOptions {
  questions: readonly SurveyEntry[];
  templateId: number;
  user: CurrentUser | null;
  /** Logged-in students keep their drafts on the server. */
  serverDrafts: boolean;
}

async function loadServerDraft(templateId: number) {
  try {
    return await loadDraft(templateId);
  } catch (error) {
    console.error('Could not load the saved draft', error);
    return null;
  }
}

/**
 * Reads what the survey can start with and chooses (see `chooseRestored`). Pending answers are
 * taken out of storage as they are read; with them, no draft is looked up at all.
 */
export async function restoreSurvey({
  questions,
  templateId,
  user,
  serverDrafts,
}: RestoreOptions): Promise<RestoredSurvey> {
  const pending = await takePendingAnswers(templateId);
  if (pending) return chooseRestored(questions, user, { pending, local: null, server: null });
  const local = await readLocalDraft(templateId);
  const server = serverDrafts ? await loadServerDraft(templateId) : null;
  return chooseRestored(questions, user, { pending: null, local, server });
}
