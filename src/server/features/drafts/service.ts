import { z } from 'zod';
import { DECLINED } from '../../../common/instruments/types';
import type { AnswerValue, SavedDraft } from '../../../common/schemas/surveys';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { AppError } from '../../lib/errors';
import type { SessionUser } from '../../lib/sessions';
import { now } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { findTemplate } from '../templates';
import * as queries from './queries';

export const DRAFT_SURVEY_NOT_FOUND = 'Survey not found';
export const DRAFT_CHANGED =
  'This draft was changed in another window. Load it again to bring both sets of answers together.';
export const DRAFT_TOO_LARGE = `Draft is too large to save (the limit is ${LIMITS.draftBytes.max / 1024} KB)`;

interface DraftContent {
  student_name: string;
  school_email: string;
  answers: Record<string, AnswerValue>;
}

/** An instrument block's answers as a draft keeps them: whole numbers or "declined", by item id. */
const StoredItemAnswers = z.record(z.string(), z.union([z.number().int(), z.literal(DECLINED)]));

function storedAnswer(value: unknown): AnswerValue | undefined {
  if (typeof value === 'string') return value;
  const items = StoredItemAnswers.safeParse(value);
  return items.success ? items.data : undefined;
}

/** Drafts exist only for templates of the user's own institution; any other id is unknown. */
async function requireOwnTemplate(db: Executor, user: SessionUser, templateId: number) {
  const template =
    user.institutionId === null ? undefined : await findTemplate(db, user.institutionId, templateId);
  if (!template) throw new AppError('NOT_FOUND', DRAFT_SURVEY_NOT_FOUND);
}

/** `drafts.data`: a field of the wrong type reads as empty rather than losing the whole draft. */
const StoredDraft = z.object({
  student_name: z.string().catch(''),
  school_email: z.string().catch(''),
  answers: z.record(z.string(), z.unknown()).transform((answers) => {
    const kept: Record<string, AnswerValue> = {};
    for (const [key, value] of Object.entries(answers)) {
      const answer = storedAnswer(value);
      if (answer !== undefined) kept[key] = answer;
    }
    return kept;
  }),
});

function readContent(stored: string): DraftContent | null {
  return parseStoredJson(StoredDraft, stored);
}

/**
 * Saves the user's draft of this template and returns its new version (`updated_at`). With a
 * base version (see AutosaveRequest.base_updated_at) it only replaces that very version;
 * without one it replaces whatever is stored.
 */
export async function saveDraft(options: {
  db: Executor;
  user: SessionUser;
  templateId: number;
  content: DraftContent;
  baseUpdatedAt?: string | null;
}): Promise<string> {
  const { db, user, templateId, content, baseUpdatedAt } = options;
  const data = JSON.stringify(content);
  if (Buffer.byteLength(data, 'utf8') > LIMITS.draftBytes.max)
    throw new AppError('PAYLOAD_TOO_LARGE', DRAFT_TOO_LARGE);
  await requireOwnTemplate(db, user, templateId);
  const draft = { userId: user.id, templateId, data, updatedAt: now() };
  if (baseUpdatedAt === undefined) {
    await queries.saveDraft(db, draft);
  } else if (baseUpdatedAt === null) {
    if (!(await queries.insertDraftIfNone(db, draft))) throw new AppError('CONFLICT', DRAFT_CHANGED);
  } else {
    const base = Date.parse(baseUpdatedAt);
    // Each save gets a later version than its base, even within the same millisecond.
    draft.updatedAt = Math.max(draft.updatedAt, base + 1);
    if (!(await queries.updateDraftIfUnchanged(db, { ...draft, baseUpdatedAt: base }))) {
      throw new AppError('CONFLICT', DRAFT_CHANGED);
    }
  }
  return new Date(draft.updatedAt).toISOString();
}

export async function loadDraft(options: {
  db: Executor;
  user: SessionUser;
  templateId: number;
}): Promise<SavedDraft | null> {
  const { db, user, templateId } = options;
  await requireOwnTemplate(db, user, templateId);
  const row = await queries.findDraft(db, user.id, templateId);
  const content = row ? readContent(row.data) : null;
  if (!row || !content) return null;
  return { template_id: templateId, ...content, updated_at: new Date(row.updated_at).toISOString() };
}

/** Clearing a draft that does not exist is not an error: the outcome is the same. */
export async function clearDraft(options: {
  db: Executor;
  user: SessionUser;
  templateId: number;
}): Promise<void> {
  const { db, user, templateId } = options;
  await requireOwnTemplate(db, user, templateId);
  await queries.deleteDraft(db, user.id, templateId);
}
