import { z } from 'zod/mini';

/** A case's states, in order (design section 9). */
export const CASE_STATUSES = ['new', 'acknowledged', 'in_progress', 'resolved'] as const;
export const CaseStatus = z.enum(CASE_STATUSES);
export type CaseStatus = z.infer<typeof CaseStatus>;
