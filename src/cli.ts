import module from 'node:module';

/**
 * The `jornada` command's entry (bin/jornada, `npm start`). It turns on Node's compile cache before anything else
 * is loaded (issue 42): a start then reuses the stripped TypeScript and compiled code of the ~400 modules it loads
 * instead of stripping and compiling each again, which was a fifth of a later start (docs/performance.md,
 * "Starting up"). The cache is Node's own, in the system's temporary directory (or NODE_COMPILE_CACHE), keyed by
 * each file's content; NODE_DISABLE_COMPILE_CACHE=1 turns it off. The commands are in commands.ts.
 */
module.enableCompileCache?.();
await import('./commands.ts');
