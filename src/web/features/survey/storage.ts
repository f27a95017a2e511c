import { z } from 'zod';
import type { DraftContent } from './answers';

/**
 * Survey data kept in this tab's session storage: it never outlives the tab, and logout clears
 * it. Storage that is full or switched off (private modes) only costs the convenience, so every
 * failure is logged and the survey carries on.
 */

const DRAFT_KEY_PREFIX = 'wellness-survey-draft:';
/** Spec section 4: answers waiting for a login the server asked for (`requires_auth`). */
export const PENDING_ANSWERS_KEY = 'wellness-survey-pending-answers';

const StoredDraft = z.object({
  template_id: z.number().int(),
  student_name: z.string(),
  school_email: z.string(),
  answers: z.record(z.string(), z.string()),
  /** Spec section 3: the local copy of a draft also holds when it was saved (ms since epoch). */
  lastSaved: z.number(),
});
export type StoredDraft = z.infer<typeof StoredDraft>;

const PendingAnswers = StoredDraft.omit({ lastSaved: true }).extend({ path: z.string() });
export type PendingAnswers = z.infer<typeof PendingAnswers>;

function read<T>(key: string, schema: z.ZodType<T>): T | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (raw === null) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    console.error(`Could not read ${key} from session storage`, error);
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    console.error(`Could not write ${key} to session storage`, error);
  }
}

function remove(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch (error) {
    console.error(`Could not remove ${key} from session storage`, error);
  }
}

const draftKey = (templateId: number) => `${DRAFT_KEY_PREFIX}${templateId}`;

export function readLocalDraft(templateId: number): StoredDraft | null {
  const draft = read(draftKey(templateId), StoredDraft);
  return draft?.template_id === templateId ? draft : null;
}

export function writeLocalDraft(draft: DraftContent): void {
  write(draftKey(draft.template_id), { ...draft, lastSaved: Date.now() } satisfies StoredDraft);
}

export function removeLocalDraft(templateId: number): void {
  remove(draftKey(templateId));
}

export function storePendingAnswers(pending: PendingAnswers): void {
  write(PENDING_ANSWERS_KEY, pending);
}

/**
 * The pending answers of this survey, removed from storage as they are handed over. Answers
 * waiting for another survey stay where they are.
 */
export function takePendingAnswers(templateId: number): PendingAnswers | null {
  const pending = read(PENDING_ANSWERS_KEY, PendingAnswers);
  if (!pending || pending.template_id !== templateId) return null;
  remove(PENDING_ANSWERS_KEY);
  return pending;
}
