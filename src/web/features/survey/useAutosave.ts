import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { type DraftContent, draftFingerprint, hasAnswers } from './answers';
import { saveDraft } from './surveyApi';

/** Spec section 9: drafts of logged-in users are sent every 3 seconds. */
export const AUTOSAVE_INTERVAL_MS = 3000;

/**
 * Why the last save did not reach the server: the session has ended (saving stops until the
 * student logs in again), or anything else (a lost connection, a server failure: it retries).
 */
export type AutosaveFailure = 'session-ended' | 'failed';

interface AutosaveOptions {
  /** Logged-in students only, and only while the survey is being filled in. */
  enabled: boolean;
  draft: DraftContent;
}

/**
 * Sends the draft to the server every AUTOSAVE_INTERVAL_MS while answers exist and something
 * changed since the last save. One save at a time; `settle()` waits for the one in flight, so
 * a submit or a Start fresh never races an autosave that lands after it.
 */
export function useAutosave({ enabled, draft }: AutosaveOptions) {
  const draftRef = useRef(draft);
  const savedFingerprint = useRef<string | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [failure, setFailure] = useState<AutosaveFailure | null>(null);
  const sessionEnded = useRef(false);

  useEffect(() => {
    draftRef.current = draft;
  }, [draft]);

  const saveIfChanged = useCallback((): Promise<void> => {
    if (inFlight.current) return inFlight.current;
    // Every further save would be refused the same way: wait for a new login.
    if (sessionEnded.current) return Promise.resolve();
    const current = draftRef.current;
    if (!hasAnswers(current.answers)) return Promise.resolve();
    const fingerprint = draftFingerprint(current);
    if (fingerprint === savedFingerprint.current) return Promise.resolve();
    const request = saveDraft({ ...current, answers: { ...current.answers } })
      .then(() => {
        savedFingerprint.current = fingerprint;
        setSavedAt(new Date());
        setFailure(null);
      })
      .catch((error: unknown) => {
        console.error('Could not autosave the survey draft', error);
        const ended = error instanceof ApiError && error.status === 401;
        if (ended) sessionEnded.current = true;
        setFailure(ended ? 'session-ended' : 'failed');
      })
      .finally(() => {
        inFlight.current = null;
      });
    inFlight.current = request;
    return request;
  }, []);

  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => void saveIfChanged(), AUTOSAVE_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [enabled, saveIfChanged]);

  /** Resolves once no save is in flight. */
  const settle = useCallback(async () => {
    await inFlight.current;
  }, []);

  /** Records that the server already holds this draft (e.g. it was just restored from there). */
  const markSaved = useCallback((saved: DraftContent, at: Date | null) => {
    savedFingerprint.current = draftFingerprint(saved);
    setSavedAt(at);
  }, []);

  /** Forgets the last save, after the server draft was cleared. */
  const reset = useCallback(() => {
    savedFingerprint.current = null;
    setSavedAt(null);
  }, []);

  return { savedAt, failure, settle, markSaved, reset };
}
