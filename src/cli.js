// The `jornada` command's entry (bin/jornada, `npm start`), in plain JavaScript on purpose (issue 42): it turns on
// Node's compile cache before anything else is loaded, so that a start reuses the stripped TypeScript and the
// compiled code of the ~1,900 modules it loads instead of stripping and compiling each again (a fifth of a later
// start), and Node's TypeScript stripper itself (some 20 MB resident) is not loaded at all once every file is in
// the cache; a TypeScript entry would need the stripper before the cache could be turned on. The cache is Node's
// own, in the system's temporary directory (or NODE_COMPILE_CACHE), keyed by each file's content;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. The commands are in commands.ts (docs/performance.md, "Starting up").
import module from 'node:module';

module.enableCompileCache?.();
await import('./commands.ts');
