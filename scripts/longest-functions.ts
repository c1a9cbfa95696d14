/**
 * The longest functions of src/ (issue 36's measure of where the code is hard to read): `node
 * scripts/longest-functions.ts [count]`. A function is a declaration, a method, or a function or arrow
 * expression; its length is its lines from the first to the last. The TypeScript is parsed by oxc, through
 * rolldown (Vite's bundler), since TypeScript 7 has no JavaScript API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';

const root = path.resolve(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

export type FunctionLength = { name: string; file: string; line: number; lines: number };
type Node = { type: string; start: number; end: number; [key: string]: unknown };

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

export function longestFunctions(count: number): FunctionLength[] {
  const found: FunctionLength[] = [];
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8');
    const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
    const visit = (node: unknown, name: string) => {
      if (Array.isArray(node)) {
        for (const item of node) visit(item, name);
        return;
      }
      if (node === null || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
      const current = node as Node;
      let owner = name;
      // A name for what follows: a variable, a property, a method, or the function's own.
      const key = (current.id ?? current.key) as { name?: string } | undefined;
      if (key?.name && current.type !== 'Identifier') owner = key.name;
      if (FUNCTIONS.has(current.type)) {
        const first = lineOf(current.start);
        found.push({
          name: owner || '(anonymous)',
          file: path.relative(path.dirname(root), file),
          line: first,
          lines: lineOf(current.end) - first + 1,
        });
      }
      for (const [field, value] of Object.entries(current)) {
        if (field !== 'type' && field !== 'start' && field !== 'end') visit(value, owner);
      }
    };
    visit(parseAst(text, { lang: 'ts' }, file), '');
  }
  return found.sort((a, b) => b.lines - a.lines).slice(0, count);
}

if (import.meta.main) {
  for (const item of longestFunctions(Number(process.argv[2] ?? 10))) {
    process.stdout.write(`${String(item.lines).padStart(5)}  ${item.name}  ${item.file}:${item.line}\n`);
  }
}
