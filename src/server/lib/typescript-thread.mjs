// A thread's first module: loads the TypeScript module named by the thread's first argument.
// Threads do not inherit the TypeScript loader the server runs under, so the entry is loaded
// through tsx's API; that works the same under `npm start`, the tests and the benchmarks.
import { tsImport } from 'tsx/esm/api';

const [entry] = process.argv.slice(2);
if (!entry) throw new Error('A TypeScript thread needs the URL of its entry module.');
await tsImport(entry, import.meta.url);
