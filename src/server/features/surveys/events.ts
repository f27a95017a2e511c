import type { AnswersTable, SubmissionsTable } from '../../db/types';
import { TransactionEvent } from '../../lib/transaction-event';

/** One answer of a stored submission, as those who follow submissions up read it. */
export interface StoredAnswer {
  category: AnswersTable['category'];
  questionType: 'likert' | 'text';
  value: string;
}

/** A submission of a proven address, as those who follow it up read it. */
export interface ProvenSubmission {
  institutionId: number;
  submissionId: number;
  /** The respondent's address: what identifies the student across accounts and links. */
  email: string;
  tier: SubmissionsTable['tier'];
  likertMean: number | null;
  /** The submission's own time (epoch milliseconds). */
  createdAt: number;
  answers: readonly StoredAnswer[];
}

/** A submission just stored (a retry of one already stored is not announced again). */
export interface SubmissionStored extends ProvenSubmission {
  respondentId: number;
  /**
   * Whether the sender proved the address (design section 8). An unproven submission changes
   * nothing anyone counts about the named student until SubmissionsProven tells of it.
   */
  proven: boolean;
  /** Unproven: the sending client's address, by which unproven urgent alerts are limited. */
  clientAddress?: string;
}

/** Submissions that waited for their address to be proven, and count from now on. */
export interface SubmissionsProven {
  /** When the address was proven. */
  at: number;
  submissions: readonly ProvenSubmission[];
}

/**
 * What surveys announce about submissions, inside the transaction that stores (or promotes) them,
 * so that whatever follows a submission (rollups, cases, live dashboards) is kept with it or not
 * at all. The app subscribes the followers at start (app.ts); a caller without an app (the demo
 * seed, tests) subscribes its own.
 */
export class SubmissionEvents {
  readonly stored = new TransactionEvent<SubmissionStored>();
  readonly proven = new TransactionEvent<SubmissionsProven>();
}
