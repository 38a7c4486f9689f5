import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { SERVICE_NAMES } from '@platform/common';
import { REPO_ROOT } from '@platform/launcher';
import { SETTING, settingsReadByProcesses } from './service-settings.js';

/**
 * Every setting the gateway and the services read is decided for production: either the
 * production overlay sets it (the shared ConfigMap, a Secret, or a container's env), or
 * docs/operations.md lists it under "Settings left at their defaults". A new setting fails here
 * until someone decides which; a setting the overlay starts setting must leave that list.
 */
const OVERLAY = 'overlays/production';
const DOCS = 'docs/operations.md';
const SECTION = '### Settings left at their defaults';

interface Rendered {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: { env?: { name: string }[] }[] } } };
}

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const hasKubectl = !kubectl.error;
if (!hasKubectl) console.warn(`SKIPPED: deploy/k8s/${OVERLAY} is not rendered: kubectl is not installed (${kubectl.error?.message}).`);

/** What the overlay sets, by name: ConfigMap and Secret keys, and every container's env. */
function setByOverlay(): Set<string> {
  const result = spawnSync('kubectl', ['kustomize', join(REPO_ROOT, 'deploy/k8s', OVERLAY)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${OVERLAY} failed: ${result.stderr}`);
  const set = new Set<string>();
  for (const doc of parseAllDocuments(result.stdout)) {
    const object = doc.toJS() as Rendered | null;
    if (!object) continue;
    if (object.kind === 'ConfigMap' || object.kind === 'Secret') for (const key of Object.keys({ ...object.data, ...object.stringData })) set.add(key);
    for (const container of object.spec?.template?.spec?.containers ?? []) for (const variable of container.env ?? []) set.add(variable.name);
  }
  return set;
}

/** The names docs/operations.md lists as left at their defaults: every `NAME` in backticks in that section. */
function documentedDefaults(): Set<string> {
  const text = readFileSync(join(REPO_ROOT, DOCS), 'utf8');
  const start = text.indexOf(`${SECTION}\n`);
  if (start < 0) throw new Error(`${DOCS} has no section '${SECTION}'`);
  const rest = text.slice(start + SECTION.length);
  const end = rest.search(/\n#{1,3} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]).filter((name) => SETTING.test(name)));
}

(hasKubectl ? describe : describe.skip)(`the settings of deploy/k8s/${OVERLAY}`, () => {
  it('sets every setting a process reads, or docs/operations.md says it is left at its default', async () => {
    const read = await settingsReadByProcesses(['gateway', ...SERVICE_NAMES]);
    const set = setByOverlay();
    const defaults = documentedDefaults();
    const undecided = [...read].filter(([name]) => !set.has(name) && !defaults.has(name)).map(([name, where]) => `${name} (${where.join(', ')})`);
    // on failure: set it in the overlay, or add it to the section of docs/operations.md
    expect(undecided).toEqual([]);
  });

  it('lists as defaults only real settings that the overlay does not set', async () => {
    const read = await settingsReadByProcesses(['gateway', ...SERVICE_NAMES]);
    const set = setByOverlay();
    const listed = [...documentedDefaults()];
    expect(listed.length).toBeGreaterThan(0);
    expect({ setAnyway: listed.filter((name) => set.has(name)), unknown: listed.filter((name) => !read.has(name)) }).toEqual({ setAnyway: [], unknown: [] });
  });

  it('finds the settings of the shared classes and of each app', async () => {
    const read = await settingsReadByProcesses(['gateway', ...SERVICE_NAMES]);
    // one of each source: ServiceConfig, an app's config class, a storage feature's, the gateway's, tracing
    for (const name of ['DATABASE_POOL_SIZE', 'RUN_LEASE_MS', 'S3_BUCKET', 'GATEWAY_PORT', 'OTEL_TRACES_SAMPLER', 'DATABASE_APP_PASSWORD']) {
      expect(read.has(name)).toBe(true);
    }
  });
});
