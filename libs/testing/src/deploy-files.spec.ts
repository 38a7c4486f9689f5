import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES, SERVICES } from '@platform/common';
import { REPO_ROOT } from '@platform/launcher';

/** What each deployment file must run for a service: its Node.js options, then its entry. */
const commandOf = (name: string) =>
  JSON.stringify(['node', ...(SERVICES[name as keyof typeof SERVICES].nodeArgs ?? []), `apps/${name}/dist/src/main.js`]).replace(/,/g, ', ');

describe('deployment files start each service as the harness does', () => {
  const compose = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');

  it.each([...SERVICE_NAMES])('%s: docker-compose and Kubernetes pass its Node.js options', (name) => {
    expect(compose).toContain(`command: ${commandOf(name)}`);
    expect(readFileSync(join(REPO_ROOT, 'deploy/k8s/base', `${name}.yaml`), 'utf8')).toContain(`args: ${commandOf(name)}`);
  });
});
