import type { Executor } from '../../db/executor';
import { now } from '../../lib/time';
import * as queries from './queries';

/** Keeps a quote request from the landing page for the team to answer by email. */
export async function saveContactRequest(options: {
  db: Executor;
  request: { institution: string; name: string; email: string; students: number | null; message: string };
}): Promise<void> {
  await queries.insertContactRequest(options.db, { ...options.request, created_at: now() });
}
