import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/types';
import type { TestAgent } from './app';

/** The code in the newest mail queued for the address (a mail keeps its words until it is delivered). */
export async function latestCodeFor(db: Kysely<Database>, email: string): Promise<string> {
  const mail = await db
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const code = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1];
  if (!code) throw new Error(`No code was mailed to ${email}`);
  return code;
}

/** Proves the address for the agent's browser, as a person reading the mail would. */
export async function proveAddress(agent: TestAgent, db: Kysely<Database>, email: string, hashLink?: string) {
  const start = await agent.post('/api/verify/start/', {
    email,
    ...(hashLink ? { hash_link: hashLink } : {}),
  });
  if (start.status !== 200)
    throw new Error(`verify/start failed: ${start.status} ${JSON.stringify(start.body)}`);
  const check = await agent.post('/api/verify/check/', {
    email,
    code: await latestCodeFor(db, email),
    proof_tokens: agent.proofTokens,
  });
  if (check.status !== 200)
    throw new Error(`verify/check failed: ${check.status} ${JSON.stringify(check.body)}`);
  return check;
}

/** Registers a student and proves the address, so the account can sign in. */
export async function registerProven(
  agent: TestAgent,
  db: Kysely<Database>,
  registration: { institution_name: string; name: string; email: string; password: string },
) {
  const response = await agent.post('/api/register/', {
    ...registration,
    confirm_password: registration.password,
  });
  if (response.status !== 201)
    throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
  const check = await agent.post('/api/verify/check/', {
    email: registration.email.toLowerCase(),
    code: await latestCodeFor(db, registration.email.toLowerCase()),
  });
  if (check.status !== 200)
    throw new Error(`verify/check failed: ${check.status} ${JSON.stringify(check.body)}`);
  return check;
}
