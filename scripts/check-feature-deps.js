#!/usr/bin/env node
// Feature folders depend one way (issue 27). For every app, each top-level folder of
// `apps/<svc>/src` is a feature (`config/`, `migrations/` and `cli/` included: they are features
// like any other); files directly in `src` (main.ts, app.module.ts, …) are the composition root
// and may import anything, and nothing in this check looks at imports into them. Every import
// between `.ts` files of `src` counts, type-only and dynamic ones included; `test/` is out of
// scope. The check fails when
//   (a) the features of one app import each other in a cycle (A imports something in B, and B,
//       directly or through other features, imports something in A), or
//   (b) a file of one feature imports another feature's `*.repository.ts`: a repository is
//       private to its feature; others go through the feature's service or public surface.
// Each offending import is printed as `file:line → target`. Run by `scripts/check.sh`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file) => path.relative(root, file);

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

// Relative specifiers only (packages are other code); `./x.js` in source names `./x.ts`.
function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((file) => file.endsWith('.ts') && existsSync(file) && statSync(file).isFile());
}

// The feature a file belongs to, or undefined for the composition root and files outside src.
function featureOf(src, file) {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

// Tarjan's strongly connected components of the feature graph: each component with more than
// one feature is a cycle.
function cycles(graph) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (node) => {
    const info = { index, low: index, onStack: true };
    index += 1;
    state.set(node, info);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      const other = state.get(next);
      if (!other) {
        visit(next);
        info.low = Math.min(info.low, state.get(next).low);
      } else if (other.onStack) {
        info.low = Math.min(info.low, other.index);
      }
    }
    if (info.low === info.index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

const problems = [];
const appsDir = path.join(root, 'apps');
for (const app of readdirSync(appsDir).sort()) {
  const src = path.join(appsDir, app, 'src');
  if (!existsSync(src)) continue;
  // feature → feature it imports → the imports that make that edge
  const graph = new Map();
  for (const file of tsFiles(src).sort()) {
    const from = featureOf(src, file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const lineStarts = ts.computeLineStarts(text);
    for (const imported of importedFiles) {
      const target = resolveImport(file, imported.fileName);
      const to = target && featureOf(src, target);
      if (!to || to === from) continue;
      const line = ts.computeLineAndCharacterOfPosition(lineStarts, imported.pos).line + 1;
      const edge = `${rel(file)}:${line} → ${rel(target)}`;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(edge);
      if (target.endsWith('.repository.ts')) {
        problems.push(`apps/${app}: ${from} imports the repository of ${to} (private to its feature)\n    ${edge}`);
      }
    }
  }
  for (const component of cycles(graph)) {
    const members = new Set(component);
    const edges = component.flatMap((from) => [...graph.get(from)].filter(([to]) => members.has(to)).flatMap(([, list]) => list));
    problems.push(`apps/${app}: feature cycle ${component.join(' ↔ ')}\n    ${edges.join('\n    ')}`);
  }
}

if (problems.length > 0) {
  console.error(`Feature folders must depend one way (see the comment atop scripts/check-feature-deps.js):\n`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error(`\n${problems.length} problem(s)`);
  process.exit(1);
}
