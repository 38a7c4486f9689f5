import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import semver from 'semver';
import { REPO_ROOT } from '@platform/launcher';

/**
 * The platform runs on Node.js 20 (CI's and this machine's) and on the current LTS. A dependency
 * that says it needs a newer Node.js is a wrong choice even when it happens to work today: Vitest 5
 * (Node 22+) crashed in its own error reporter on Node 20 (`Map.groupBy`), hiding every failing
 * assertion of the console's tests. Only what we declare is checked: what other packages bring in
 * is theirs to choose (the NATS client's id generator and NestJS's file-type say "Node 22+" and
 * run on 20; file-type is loaded only by an upload validator no service uses).
 */
const NODE_VERSIONS = ['20.19.0', '24.11.0'];

interface Manifest {
  name: string;
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const read = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

const workspaces = [REPO_ROOT];
for (const folder of ['libs', 'apps', 'clients']) {
  for (const name of readdirSync(join(REPO_ROOT, folder))) {
    if (existsSync(join(REPO_ROOT, folder, name, 'package.json'))) workspaces.push(join(REPO_ROOT, folder, name));
  }
}

/** The installed manifest of `name` as Node would find it from `folder`. */
function installed(folder: string, name: string): Manifest | undefined {
  for (const base of [folder, REPO_ROOT]) {
    const file = join(base, 'node_modules', name, 'package.json');
    if (existsSync(file)) return read(file);
  }
  return undefined;
}

describe('Node.js versions', () => {
  it('declares Node.js 20.19 as the floor', () => {
    expect(read(join(REPO_ROOT, 'package.json')).engines?.node).toBe('>=20.19.0');
  });

  it('depends only on packages that support Node.js 20 and the current LTS', () => {
    const refused: string[] = [];
    for (const folder of workspaces) {
      const manifest = read(join(folder, 'package.json'));
      for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
        const dependency = installed(folder, name);
        const range = dependency?.engines?.node;
        if (!dependency || !range) continue;
        const unsupported = NODE_VERSIONS.filter((version) => !semver.satisfies(version, range));
        if (unsupported.length) refused.push(`${manifest.name}: ${name}@${dependency.version} needs node ${range} (not ${unsupported.join(', ')})`);
      }
    }
    expect(refused).toEqual([]);
  });
});
