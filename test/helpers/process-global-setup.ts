import fs from 'node:fs';
import { buildServerForTests, SERVER_BUILD_VARIABLE, SERVER_BUILT_AT_VARIABLE } from './server-build';

/** Compiles the server once for the run (see server-build.ts) and removes the build at its end. */
export default function setup() {
  const { folder, builtAt } = buildServerForTests();
  process.env[SERVER_BUILD_VARIABLE] = folder;
  process.env[SERVER_BUILT_AT_VARIABLE] = String(builtAt);
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
