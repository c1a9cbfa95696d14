/**
 * The entry of releases before 0.42, kept so that a deployment that runs `node src/cli.ts …` (a service unit, a
 * script) keeps working after an upgrade. It runs the same commands without the compile cache; the entry is
 * src/cli.js (bin/jornada, `npm start`, the image), which turns the cache on first.
 */
await import('./commands.ts');
