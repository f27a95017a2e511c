import fs from 'node:fs';
import path from 'node:path';

/**
 * The data folder holds the database (urgent free-text answers, password hashes) and the server
 * secret: nobody but the server's own user may read it. Modes are set explicitly after creation
 * (chmod is not subject to the umask), and files left readable by an older version are tightened
 * at every start.
 */
const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and missing parents) if needed and makes it owner-only. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Makes an existing file owner-only; a missing one is left missing. */
export function makePrivateIfPresent(file: string): void {
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Before SQLite opens its file: a missing folder is created owner-only (an existing one is the
 * operator's choice, e.g. /var/lib), the database file is created 0600 and the existing database,
 * WAL and shared-memory files are tightened. SQLite gives the WAL and -shm files it creates later
 * the database file's mode.
 */
export function prepareSqliteFiles(file: string): void {
  const dir = path.dirname(path.resolve(file));
  if (!fs.existsSync(dir)) makePrivateDir(dir);
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const suffix of ['', '-wal', '-shm', '-journal']) makePrivateIfPresent(`${file}${suffix}`);
}
