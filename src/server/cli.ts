/** `npm run manage -- <command> [options]`: the operator commands of src/server/manage/. */
import { runManage } from './manage/commands';

process.exitCode = await runManage(process.argv.slice(2), {
  env: process.env,
  terminal: { stdin: process.stdin, prompts: process.stderr },
  out: process.stdout,
  err: process.stderr,
});
