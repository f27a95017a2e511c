import { CsvError, parse } from 'csv-parse/sync';
import { z } from 'zod/mini';
import { emailDomain } from '../../../common/institution-email';
import { Email } from '../../../common/schemas/common';
import {
  ROSTER_GROUP_MAX_LENGTH,
  ROSTER_MAX_ROWS,
  ROSTER_NAME_MAX_LENGTH,
  type RosterRowError,
} from '../../../common/schemas/roster';
import { AppError } from '../../lib/errors';

/**
 * Reading the registrar's CSV. csv-parse does the format (quotes, commas and line breaks inside
 * quotes, the BOM); this module finds the columns by their header and checks every row, so that
 * a bad row is reported by its line in the file and the good ones can still be imported.
 */

export interface RosterRow {
  /** Line of the file where the row starts (the header is line 1). */
  line: number;
  name: string;
  email: string;
  /** Null for a blank cell; undefined when the file has no group column at all. */
  group?: string | null;
}

interface RosterFile {
  rows: RosterRow[];
  errors: RosterRowError[];
}

const HEADERS = {
  name: ['name', 'full name', 'student name'],
  email: ['email', 'e-mail', 'email address', 'school email'],
  group: ['group', 'group name', 'section', 'cohort'],
} as const;

export const NOT_TEXT =
  'The file is not a UTF-8 text CSV file. Export it from the spreadsheet as "CSV UTF-8".';
export const NO_HEADER =
  'The first line must name the columns: name and email, and optionally group (e.g. "name,email,group").';
export const EMPTY_FILE = 'The file has no students in it.';
const TOO_MANY_ROWS = `The file has more than ${ROSTER_MAX_ROWS.toLocaleString('en-US')} students. Split it into smaller files.`;

/** Any character a name or a group should never hold: controls, and what the decoder could not read. */
const UNPRINTABLE = /[\p{Cc}\ufffd]/u;

function cleanText(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function columnIndex(header: string[], names: readonly string[]): number {
  return header.findIndex((cell) => names.includes(cleanText(cell).toLowerCase()));
}

/** The CSV's records with the line each starts on; a malformed file (an unclosed quote) is refused whole. */
function readRecords(text: string): { line: number; cells: string[] }[] {
  // One line ending everywhere, so line numbers count what an editor shows.
  const normalised = text.replace(/\r\n?/g, '\n');
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with where the parser was; the typings only know plain records.
    parsed = parse(normalised, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: false,
      max_record_size: 10_000,
      to: ROSTER_MAX_ROWS + 2,
    }) as unknown as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new AppError(
        'BAD_REQUEST',
        `The file is not valid CSV${line ? ` at line ${line}` : ''}: ${error.message.replace(/^[^:]*: /, '')}`,
      );
    }
    throw error;
  }
  return parsed
    .map(({ record, info }) => ({
      // csv-parse counts the line a record ends on; a quoted field may span several.
      line: info.lines - record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0),
      cells: record,
    }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
}

/**
 * Reads and checks an upload against the institution's email domains and its staff accounts'
 * addresses (only students are surveyed: a personal survey link to a member of staff would let
 * them answer as a student). Throws for a file that cannot be read as a roster at all (nothing of
 * it may be applied); returns the good rows and a reason for each bad one otherwise.
 */
export function readRosterCsv(
  text: string,
  domains: readonly string[],
  staffAddresses: ReadonlySet<string>,
): RosterFile {
  if (text.includes('\u0000') || text.includes('\ufffd')) throw new AppError('BAD_REQUEST', NOT_TEXT);
  const records = readRecords(text);
  const [header, ...body] = records;
  if (!header) throw new AppError('BAD_REQUEST', EMPTY_FILE);
  const columns = {
    name: columnIndex(header.cells, HEADERS.name),
    email: columnIndex(header.cells, HEADERS.email),
    group: columnIndex(header.cells, HEADERS.group),
  };
  if (columns.name < 0 || columns.email < 0) throw new AppError('BAD_REQUEST', NO_HEADER);
  if (body.length === 0) throw new AppError('BAD_REQUEST', EMPTY_FILE);
  if (body.length > ROSTER_MAX_ROWS) throw new AppError('BAD_REQUEST', TOO_MANY_ROWS);

  const accepted = new Set(domains);
  const expected = domains.map((domain) => `@${domain}`).join(' or ');
  const firstLineOf = new Map<string, number>();
  const rows: RosterRow[] = [];
  const errors: RosterRowError[] = [];
  for (const { line, cells } of body) {
    const refuse = (message: string) => errors.push({ line, message });
    const name = cleanText(cells[columns.name] ?? '');
    const rawEmail = cleanText(cells[columns.email] ?? '');
    const group = columns.group < 0 ? undefined : cleanText(cells[columns.group] ?? '') || null;
    if (name === '') {
      refuse('The name is missing');
      continue;
    }
    if (name.length > ROSTER_NAME_MAX_LENGTH || UNPRINTABLE.test(name)) {
      refuse(`The name is not usable (at most ${ROSTER_NAME_MAX_LENGTH} printable characters)`);
      continue;
    }
    if (rawEmail === '') {
      refuse('The email address is missing');
      continue;
    }
    const email = z.safeParse(Email, rawEmail);
    if (!email.success) {
      refuse(`"${rawEmail.slice(0, 100)}" is not a valid email address`);
      continue;
    }
    if (!accepted.has(emailDomain(email.data))) {
      refuse(`${email.data} is outside the institution's email domains (${expected})`);
      continue;
    }
    if (staffAddresses.has(email.data)) {
      refuse(`${email.data} belongs to a member of staff; only students are surveyed`);
      continue;
    }
    if (group && (group.length > ROSTER_GROUP_MAX_LENGTH || UNPRINTABLE.test(group))) {
      refuse(`The group is not usable (at most ${ROSTER_GROUP_MAX_LENGTH} printable characters)`);
      continue;
    }
    const first = firstLineOf.get(email.data);
    if (first !== undefined) {
      refuse(`${email.data} is already on line ${first} of this file`);
      continue;
    }
    firstLineOf.set(email.data, line);
    rows.push({ line, name, email: email.data, ...(group === undefined ? {} : { group }) });
  }
  return { rows, errors };
}
