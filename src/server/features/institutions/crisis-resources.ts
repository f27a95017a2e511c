import { z } from 'zod/mini';
import { repeatsAlwaysOpenLine } from '../../../common/risk/crisis-lines';
import { CrisisResource } from '../../../common/risk/crisis-resources';
import { parseStoredJson } from '../../db/stored-json';

/** An institution's own crisis resources, added to the always-open lines, and their place. */
export interface OwnCrisisResources {
  resources: CrisisResource[];
  /** Listed before the always-open lines. */
  first: boolean;
}

const NONE: OwnCrisisResources = { resources: [], first: false };

/** `institutions.crisis_resources` as written now. */
const StoredOwnResources = z.object({ resources: z.array(CrisisResource), first: z.boolean() });

/** As written before: a bare list that replaced the national lines rather than adding to them. */
const StoredReplacementList = z.array(CrisisResource);

/**
 * Reads `institutions.crisis_resources`. A list stored when an institution's resources replaced
 * the national lines is that institution's own resources now, less the copies of the national
 * lines it held (those are always shown). A value that no longer reads counts as none: the
 * always-open lines are shown whatever it holds.
 */
export function readOwnCrisisResources(stored: string | null): OwnCrisisResources {
  const current = parseStoredJson(StoredOwnResources, stored);
  if (current) return current;
  const replacements = parseStoredJson(StoredReplacementList, stored);
  if (replacements) {
    return { resources: replacements.filter((resource) => !repeatsAlwaysOpenLine(resource)), first: false };
  }
  return NONE;
}

/** The column's value; null for nothing of the institution's own (the same as never set). */
export function storedOwnCrisisResources(own: OwnCrisisResources): string | null {
  const isDefault = own.resources.length === 0 && !own.first;
  return isDefault ? null : JSON.stringify({ resources: own.resources, first: own.first });
}
