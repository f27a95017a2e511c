import { z } from 'zod/mini';
import { readStoredReason } from '../../common/risk/stored-reasons';

/**
 * Reads a JSON text column with the schema of what it holds. The columns are `text` on both
 * databases, so the driver always hands back a string. Stored JSON was written by this code, but
 * a row that no longer fits (a broken edit, an older shape) must not fail a request: it reads as
 * null and the caller decides the fallback.
 */
export function parseStoredJson<T extends z.core.$ZodType>(
  schema: T,
  stored: string | null,
): z.output<T> | null {
  if (stored === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  const parsed = z.safeParse(schema, value);
  return parsed.success ? parsed.data : null;
}

/** `submissions.reasons`: the screening's reasons, worded for counselling staff (earlier wordings with their scale). */
export const StoredReasons = z.pipe(
  z.array(z.unknown()),
  z.transform((reasons) =>
    reasons.filter((reason): reason is string => typeof reason === 'string').map(readStoredReason),
  ),
);
