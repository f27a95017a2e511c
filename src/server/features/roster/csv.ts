import {
  PassThrough,
  pipeline,
  Readable,
  Transform,
  type TransformCallback,
  type Writable,
} from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { z } from 'zod/mini';
import { institutionEmailProblem } from '../../../common/institution-email';
import { Email } from '../../../common/schemas/common';
import {
  ROSTER_GROUP_MAX_LENGTH,
  ROSTER_NAME_MAX_LENGTH,
  type RosterRowError,
} from '../../../common/schemas/roster';
import { AppError } from '../../lib/errors';
import { yieldToEventLoop } from '../../lib/event-loop';
import { LIMITS } from '../../limit-table';

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
  /** Whether the file has a group column: without one, a re-upload keeps the groups as they are. */
  withGroups: boolean;
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
/** Fastify's own words for a body over the limit, so both refusals read the same. */
export const TOO_LARGE = 'Request body is too large';
const TOO_MANY_ROWS = `The file has more than ${LIMITS.rosterRows.max.toLocaleString('en-US')} students. Split it into smaller files.`;

/** Any character a name or a group should never hold: controls, and what the decoder could not read. */
const UNPRINTABLE = /[\p{Cc}\ufffd]/u;

function cleanText(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function columnIndex(header: string[], names: readonly string[]): number {
  return header.findIndex((cell) => names.includes(cleanText(cell).toLowerCase()));
}

/** Records checked between turns given to the rest of the server (other requests, timers). */
export const ROWS_PER_TURN = 1_000;

/** How the parser reports a record: its cells and where the parser was. */
interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * UTF-8 text of the upload with one line ending everywhere (so line numbers count what an editor
 * shows). Anything that is not UTF-8 text (a spreadsheet, Latin-1, NUL) is refused at once.
 */
function utf8Lines(): Transform {
  // Fatal: a byte that is not UTF-8 refuses the file rather than turning a name into '\ufffd'.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // A '\r' at the end of a chunk may be the first half of a CRLF split across two chunks.
  let carry = '';
  const lines = (text: string, end: boolean) => {
    const whole = carry + text;
    carry = !end && whole.endsWith('\r') ? '\r' : '';
    return (carry ? whole.slice(0, -1) : whole).replace(/\r\n?/g, '\n');
  };
  const decode = (chunk: Buffer | undefined, done: TransformCallback, end: boolean) => {
    let text: string;
    try {
      text = chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      return done(new AppError('BAD_REQUEST', NOT_TEXT));
    }
    if (text.includes('\u0000') || text.includes('\ufffd'))
      return done(new AppError('BAD_REQUEST', NOT_TEXT));
    done(null, lines(text, end));
  };
  return new Transform({
    transform: (chunk: Buffer, _encoding, done) => decode(chunk, done, false),
    flush: (done) => decode(undefined, done, true),
  });
}

/**
 * Copies the upload into `into` as it arrives, refusing it once it passes `maxBytes` (whatever
 * Content-Length said). It never destroys the upload itself: its connection still has to carry
 * the answer, so when the reader stops early (a refused file) the rest is read and dropped.
 */
function feed(upload: Readable, into: Writable, maxBytes: number) {
  let bytes = 0;
  const detach = () => {
    upload.off('data', onData).off('end', onEnd).off('error', onError);
    into.off('drain', onDrain).off('close', onClose);
  };
  const giveUp = (error: Error) => {
    detach();
    upload.resume();
    into.destroy(error);
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > maxBytes) return giveUp(new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE));
    if (!into.write(chunk)) upload.pause();
  };
  const onDrain = () => upload.resume();
  const onEnd = () => {
    detach();
    into.end();
  };
  const onError = (error: Error) => giveUp(error);
  const onClose = () => {
    detach();
    upload.resume();
  };
  upload.on('data', onData).on('end', onEnd).on('error', onError);
  into.on('drain', onDrain).on('close', onClose);
}

/** The file's records, each with the line it starts on, as the parser reads them from the upload. */
async function* readRecords(upload: Readable): AsyncGenerator<{ line: number; cells: string[] }> {
  const input = new PassThrough();
  const parser = parse({
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: false,
    max_record_size: 10_000,
  });
  // Errors anywhere (too large, not text, bad CSV) end the parser's records with that error.
  const records = pipeline(input, utf8Lines(), parser, () => undefined);
  feed(upload, input, LIMITS.rosterFileBytes.max);
  try {
    for await (const { record, info } of records as AsyncIterable<ParsedRecord>) {
      if (!record.some((cell) => cell.trim() !== '')) continue;
      // csv-parse counts the line a record ends on; a quoted field may span several.
      const line = info.lines - record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
      yield { line, cells: record };
    }
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
}

/** What each row is checked against. */
interface RosterChecks {
  /** The institution, with its email domains: a student's address must be in one. */
  institution: { name: string; domains: readonly string[] };
  /**
   * Staff accounts' addresses: only students are surveyed (a personal survey link to a member of
   * staff would let them answer as a student).
   */
  staffAddresses: ReadonlySet<string>;
}

/** Checks one row; returns why it is refused, or the row to import. */
function checkRow(
  cells: string[],
  columns: { name: number; email: number; group: number },
  checks: RosterChecks,
): { refused: string } | { name: string; email: string; group?: string | null } {
  const name = cleanText(cells[columns.name] ?? '');
  const rawEmail = cleanText(cells[columns.email] ?? '');
  const group = columns.group < 0 ? undefined : cleanText(cells[columns.group] ?? '') || null;
  if (name === '') return { refused: 'The name is missing' };
  if (name.length > ROSTER_NAME_MAX_LENGTH || UNPRINTABLE.test(name))
    return { refused: `The name is not usable (at most ${ROSTER_NAME_MAX_LENGTH} printable characters)` };
  if (rawEmail === '') return { refused: 'The email address is missing' };
  const email = z.safeParse(Email, rawEmail);
  if (!email.success) return { refused: `"${rawEmail.slice(0, 100)}" is not a valid email address` };
  const outside = institutionEmailProblem(email.data, checks.institution);
  // The rule's words are said to the student; the admin reading the report is told whose row it is.
  if (outside) return { refused: `${email.data}: ${outside}` };
  if (checks.staffAddresses.has(email.data))
    return { refused: `${email.data} belongs to a member of staff; only students are surveyed` };
  if (group && (group.length > ROSTER_GROUP_MAX_LENGTH || UNPRINTABLE.test(group)))
    return { refused: `The group is not usable (at most ${ROSTER_GROUP_MAX_LENGTH} printable characters)` };
  return { name, email: email.data, ...(group === undefined ? {} : { group }) };
}

/**
 * Reads and checks an upload as it arrives, against the institution's email domains and its
 * staff accounts' addresses. Throws for a file that cannot be read as a roster at all (nothing
 * of it may be applied): over LIMITS.rosterFileBytes or LIMITS.rosterRows (refused as soon as it gets
 * there, without reading the rest), not UTF-8 text, not CSV, no header. Returns the good rows
 * and a reason for each bad one otherwise. Every ROWS_PER_TURN rows it gives the event loop a
 * turn, so a 100,000-row file never holds up other requests for its whole length.
 */
export async function readRosterCsv(upload: Readable | string, checks: RosterChecks): Promise<RosterFile> {
  const source = typeof upload === 'string' ? Readable.from([Buffer.from(upload)]) : upload;
  const firstLineOf = new Map<string, number>();
  const rows: RosterRow[] = [];
  const errors: RosterRowError[] = [];
  let columns: { name: number; email: number; group: number } | undefined;
  let count = 0;
  for await (const { line, cells } of readRecords(source)) {
    if (!columns) {
      columns = {
        name: columnIndex(cells, HEADERS.name),
        email: columnIndex(cells, HEADERS.email),
        group: columnIndex(cells, HEADERS.group),
      };
      if (columns.name < 0 || columns.email < 0) throw new AppError('BAD_REQUEST', NO_HEADER);
      continue;
    }
    count += 1;
    if (count > LIMITS.rosterRows.max) throw new AppError('BAD_REQUEST', TOO_MANY_ROWS);
    if (count % ROWS_PER_TURN === 0) await yieldToEventLoop();
    const checked = checkRow(cells, columns, checks);
    if ('refused' in checked) {
      errors.push({ line, message: checked.refused });
      continue;
    }
    const first = firstLineOf.get(checked.email);
    if (first !== undefined) {
      errors.push({ line, message: `${checked.email} is already on line ${first} of this file` });
      continue;
    }
    firstLineOf.set(checked.email, line);
    rows.push({ line, ...checked });
  }
  if (count === 0) throw new AppError('BAD_REQUEST', EMPTY_FILE);
  return { rows, errors, withGroups: columns !== undefined && columns.group >= 0 };
}
