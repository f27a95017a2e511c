import type { Readable, Writable } from 'node:stream';

/**
 * Where a new staff account's password comes from: never the command line, which `ps` shows to
 * every user of the machine and the shell keeps in its history. In order: the environment
 * variable (for automation), else standard input: typed at a prompt that does not echo when it
 * is a terminal, or its first line when it is piped.
 */
export const PASSWORD_VARIABLE = 'ADMIN_PASSWORD';

export const PASSWORD_ON_COMMAND_LINE = `--password is not accepted: a command line is visible to every user of the machine (ps) and kept in shell history. Type the password when asked, pipe it on standard input (e.g. from a password manager), or set ${PASSWORD_VARIABLE}.`;

export interface Terminal {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** Where prompts go (standard error, so standard output stays the command's result). */
  prompts: Writable;
}

export class PasswordInputError extends Error {}

export async function readNewPassword(env: NodeJS.ProcessEnv, terminal: Terminal): Promise<string> {
  const fromEnv = env[PASSWORD_VARIABLE];
  if (fromEnv) return fromEnv;
  if (terminal.stdin.isTTY && terminal.stdin.setRawMode) {
    const first = await promptHidden(terminal, 'Password: ');
    const again = await promptHidden(terminal, 'Password again: ');
    if (first !== again) throw new PasswordInputError('The two passwords differ; nothing was created.');
    return first;
  }
  return firstLine(terminal.stdin);
}

/** The first line of a piped input, without its line ending. */
async function firstLine(stdin: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (!line)
    throw new PasswordInputError(
      `No password on standard input; type it, pipe it, or set ${PASSWORD_VARIABLE}.`,
    );
  return line;
}

/** Reads a line from a terminal in raw mode, echoing nothing. Ctrl-C or Ctrl-D gives up. */
function promptHidden(terminal: Terminal, prompt: string): Promise<string> {
  const { stdin, prompts } = terminal;
  prompts.write(prompt);
  stdin.setRawMode?.(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error: Error | null) => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      prompts.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return finish(null);
        if (char === '\u0003' || char === '\u0004') return finish(new PasswordInputError('Cancelled.'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
