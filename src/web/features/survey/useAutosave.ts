import { useCallback, useEffect, useRef, useState } from 'react';
import type { DraftContent, SavedDraft } from '../../../common/schemas/surveys';
import { hasErrorCode } from '../../api';
import { type AnswerMap, draftFingerprint, hasAnswers } from './answers';
import { loadDraft, saveDraft } from './surveyApi';

/** Spec section 9: drafts of logged-in users are sent every 3 seconds. */
const AUTOSAVE_INTERVAL_MS = 3000;

/**
 * Why the last save did not reach the server: the session has ended (saving stops until the
 * student logs in again); the draft was submitted or cleared in another window (saving stops:
 * it must not come back); or anything else (a lost connection, a server failure: it retries).
 */
export type AutosaveFailure = 'session-ended' | 'stale' | 'failed';

interface AutosaveOptions {
  /** Logged-in students only, and only while the survey is being filled in. */
  enabled: boolean;
  draft: DraftContent;
  /**
   * Another window saved answers since this one last did: `base` is what both started from,
   * `theirs` the draft now stored. The form merges them into its answers; the next save sends
   * the result.
   */
  onConflict: (base: AnswerMap, theirs: SavedDraft) => void;
}

/** The stored draft this window's next save builds on: its version, and its answers. */
interface Base {
  updatedAt: string;
  answers: AnswerMap;
}

/**
 * Sends the draft to the server every AUTOSAVE_INTERVAL_MS while answers exist and something
 * changed since the last save. One save at a time; `settle()` waits for the one in flight, so
 * a submit or a Start fresh never races an autosave that lands after it.
 *
 * Each save names the version it builds on, so a second window never overwrites answers it has
 * not seen: the server refuses (`CONFLICT`), this window reads the stored draft and merges, and saves
 * again. When the stored draft is gone (submitted or cleared elsewhere) saving stops for good.
 */
export function useAutosave({ enabled, draft, onConflict }: AutosaveOptions) {
  const draftRef = useRef(draft);
  const onConflictRef = useRef(onConflict);
  const savedFingerprint = useRef<string | null>(null);
  const base = useRef<Base | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [failure, setFailure] = useState<AutosaveFailure | null>(null);
  const stopped = useRef(false);

  useEffect(() => {
    draftRef.current = draft;
    onConflictRef.current = onConflict;
  }, [draft, onConflict]);

  const catchUp = useCallback(async (current: DraftContent) => {
    const theirs = await loadDraft(current.template_id);
    if (!theirs) {
      // Submitted or cleared in another window: these answers must not bring it back.
      stopped.current = true;
      setFailure('stale');
      return;
    }
    const from = base.current?.answers ?? {};
    base.current = { updatedAt: theirs.updated_at, answers: theirs.answers };
    onConflictRef.current(from, theirs);
  }, []);

  const saveIfChanged = useCallback((): Promise<void> => {
    if (inFlight.current) return inFlight.current;
    // Every further save would be refused the same way.
    if (stopped.current) return Promise.resolve();
    const current = draftRef.current;
    if (!hasAnswers(current.answers)) return Promise.resolve();
    const fingerprint = draftFingerprint(current);
    if (fingerprint === savedFingerprint.current) return Promise.resolve();
    const answers = { ...current.answers };
    const request = saveDraft({ ...current, answers, base_updated_at: base.current?.updatedAt ?? null })
      .then((saved) => {
        savedFingerprint.current = fingerprint;
        base.current = { updatedAt: saved.updated_at, answers };
        setSavedAt(new Date());
        setFailure(null);
      })
      .catch(async (error: unknown) => {
        if (hasErrorCode(error, 'CONFLICT')) {
          await catchUp(current).catch((loadError: unknown) => {
            console.error('Could not load the draft saved in another window', loadError);
            // The session may have ended between the two requests: then no retry can succeed.
            const ended = hasErrorCode(loadError, 'UNAUTHENTICATED');
            if (ended) stopped.current = true;
            setFailure(ended ? 'session-ended' : 'failed');
          });
          return;
        }
        console.error('Could not autosave the survey draft', error);
        const ended = hasErrorCode(error, 'UNAUTHENTICATED');
        if (ended) stopped.current = true;
        setFailure(ended ? 'session-ended' : 'failed');
      })
      .finally(() => {
        inFlight.current = null;
      });
    inFlight.current = request;
    return request;
  }, [catchUp]);

  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => void saveIfChanged(), AUTOSAVE_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [enabled, saveIfChanged]);

  /** Resolves once no save is in flight. */
  const settle = useCallback(async () => {
    await inFlight.current;
  }, []);

  /** Records that the server already holds this draft, as version `updatedAt` (it was just restored from there). */
  const markSaved = useCallback((saved: DraftContent, updatedAt: Date | null) => {
    savedFingerprint.current = draftFingerprint(saved);
    base.current = updatedAt ? { updatedAt: updatedAt.toISOString(), answers: saved.answers } : null;
    setSavedAt(updatedAt);
  }, []);

  /** Forgets the last save, after the server draft was cleared. */
  const reset = useCallback(() => {
    savedFingerprint.current = null;
    base.current = null;
    setSavedAt(null);
  }, []);

  return { savedAt, failure, settle, markSaved, reset };
}
