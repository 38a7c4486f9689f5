import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT } from '@platform/launcher';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

/** The platform's own packages by name: every folder of the workspaces in package.json. */
const WORKSPACES: Record<string, string> = {};
for (const folder of ['libs', 'apps', 'clients']) {
  for (const name of readdirSync(join(REPO_ROOT, folder))) {
    const file = join(REPO_ROOT, folder, name, 'package.json');
    if (existsSync(file)) WORKSPACES[(JSON.parse(readFileSync(file, 'utf8')) as Manifest).name] = join(REPO_ROOT, folder, name);
  }
}

/** Every production dependency a workspace pulls in, following the platform's own packages. */
function productionDependencies(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const folder = WORKSPACES[name];
  if (!folder) return seen;
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
  for (const dependency of Object.keys(manifest.dependencies ?? {})) productionDependencies(dependency, seen);
  return seen;
}

const SERVICE_FRAMEWORK = /^(@nestjs\/|typeorm$|pg$|@nats-io\/|nats$)/;

/** The gateway's one NATS use: the core client, for plan limits and their pushed changes (no JetStream, no NestJS transport). */
const GATEWAY_ALLOWED = new Set(['@nats-io/transport-node', '@nats-io/nats-core', '@nats-io/nkeys', '@nats-io/nuid']);

describe('libraries in layers', () => {
  it('keeps NestJS, TypeORM, PostgreSQL and NATS (but its core client) out of the gateway', () => {
    expect([...productionDependencies('@platform/gateway')].filter((d) => SERVICE_FRAMEWORK.test(d) && !GATEWAY_ALLOWED.has(d))).toEqual([]);
  });

  it('keeps @platform/common a leaf: no other platform package and no service framework', () => {
    const deps = [...productionDependencies('@platform/common')].filter((d) => d !== '@platform/common');
    expect(deps.filter((d) => d.startsWith('@platform/') || SERVICE_FRAMEWORK.test(d))).toEqual([]);
  });
});

/** A workspace's devDependencies too: tests reference @platform/testing as a dev dependency. */
function declaredDependencies(folder: string): Set<string> {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest & { devDependencies?: Record<string, string> };
  return new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
}

describe('build order', () => {
  // turbo orders builds by package.json; `tsc -b` follows tsconfig references. A reference that
  // package.json does not declare lets turbo build the referenced package and its dependent at the
  // same time, and two compilers then write the same dist: CI once read a half-written
  // @platform/common ("has no exported member 'newId'").
  it('declares in package.json every package a tsconfig references', () => {
    const byFolder = new Map(Object.entries(WORKSPACES).map(([name, folder]) => [folder, name]));
    const undeclared: string[] = [];
    for (const [name, folder] of Object.entries(WORKSPACES)) {
      const tsconfig = join(folder, 'tsconfig.json');
      if (!existsSync(tsconfig)) continue;
      const references = [...readFileSync(tsconfig, 'utf8').matchAll(/"path":\s*"([^"]+)"/g)].map((m) =>
        join(folder, m[1]).replace(/\/tsconfig[^/]*\.json$/, ''),
      );
      const declared = declaredDependencies(folder);
      for (const reference of references) {
        const referenced = byFolder.get(reference);
        if (referenced && !declared.has(referenced)) undeclared.push(`${name} → ${referenced}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  // `npm run build` finds a workspace's own node_modules/.bin first. The SDK's openapi-typescript
  // brings TypeScript 5 beside the root's 6, and its `tsc -b` then rebuilt every library it
  // references with the other compiler, which made every other package's `tsc -b` rebuild them
  // again, at the same time as each other: a clean-clone build failed on a half-written
  // @platform/common ("has no exported member 'resolveMasterKeys'").
  it("builds every workspace with the root's TypeScript", () => {
    const version = (folder: string) => (JSON.parse(readFileSync(join(folder, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version;
    const root = version(REPO_ROOT);
    const other: string[] = [];
    for (const [name, folder] of Object.entries(WORKSPACES)) {
      const build = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts?.build ?? '';
      const bareTsc = /(^|&&\s*)tsc\b/.test(build);
      if (bareTsc && existsSync(join(folder, 'node_modules/typescript/package.json')) && version(folder) !== root) other.push(`${name}: ${version(folder)}`);
    }
    expect(other).toEqual([]);
  });
});
