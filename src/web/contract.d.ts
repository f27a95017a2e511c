// A module of the contract as its own copy (scripts/vite-endpoint-entries.ts, contractModules):
// typed by a cast to the module it copies, where it is imported.
declare module '*?contract';
