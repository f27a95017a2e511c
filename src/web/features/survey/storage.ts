import type { DraftContent } from '../../../common/schemas/surveys';

/**
 * Survey data kept in this tab's session storage: it never outlives the tab, and logout clears
 * it. Storage that is full or switched off (private modes) only costs the convenience, so every
 * failure is logged and the survey carries on.
 */

const DRAFT_KEY_PREFIX = 'wellness-survey-draft:';
/** Spec section 4: answers waiting for a login the server asked for (`requires_auth`). */
export const PENDING_ANSWERS_KEY = 'wellness-survey-pending-answers';

/** Spec section 3: the local copy of a draft also holds when it was saved (ms since epoch). */
export type StoredDraft = DraftContent & { lastSaved: number };

/** Answers kept across a login, with the path of the survey they belong to. */
export type PendingAnswers = DraftContent & { path: string };

interface StoredEntry {
  /** The draft in the entry; null when the entry is missing or is not a draft. */
  draft: DraftContent | null;
  /** The entry as stored, for the fields the browser keeps beside the draft. */
  extra: Record<string, unknown>;
}

const NO_ENTRY: StoredEntry = { draft: null, extra: {} };

/**
 * The schema of a stored draft, from the contract's own copy of its module (loaded with zod):
 * read only when there is an entry, so that a survey with nothing stored loads no zod.
 */
async function draftContent() {
  const schemas = (await import(
    '../../../common/schemas/surveys.ts?contract'
  )) as typeof import('../../../common/schemas/surveys');
  return schemas.DraftContent;
}

/** Reads an entry; what another version of the app, or a hand, left there never reaches the form. */
async function read(key: string): Promise<StoredEntry> {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (raw === null) return NO_ENTRY;
    const value: unknown = JSON.parse(raw);
    const parsed = (await draftContent()).safeParse(value);
    return parsed.success ? { draft: parsed.data, extra: value as Record<string, unknown> } : NO_ENTRY;
  } catch (error) {
    console.error(`Could not read ${key} from session storage`, error);
    return NO_ENTRY;
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

export async function readLocalDraft(templateId: number): Promise<StoredDraft | null> {
  const { draft, extra } = await read(draftKey(templateId));
  if (draft?.template_id !== templateId || typeof extra.lastSaved !== 'number') return null;
  return { ...draft, lastSaved: extra.lastSaved };
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
export async function takePendingAnswers(templateId: number): Promise<PendingAnswers | null> {
  const { draft, extra } = await read(PENDING_ANSWERS_KEY);
  if (draft?.template_id !== templateId || typeof extra.path !== 'string') return null;
  remove(PENDING_ANSWERS_KEY);
  return { ...draft, path: extra.path };
}
