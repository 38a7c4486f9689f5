import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { UsageError } from '../src/cli-errors.js';
import { readInput } from '../src/commands/run.command.js';
import { parseDuration } from '../src/duration.js';
import { table } from '../src/output.js';
import { profileFilePath, resolveProfile, saveProfile } from '../src/profiles.js';

describe('CLI basics', () => {
  it('reads durations', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('45')).toBe(45_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(() => parseDuration('soon')).toThrow(UsageError);
  });

  it('reads --input as JSON, an object only', () => {
    expect(readInput('{"x":1}')).toEqual({ x: 1 });
    expect(readInput(undefined)).toEqual({});
    expect(() => readInput('[1]')).toThrow(/JSON object/);
    expect(() => readInput('@/does/not/exist.json')).toThrow(/cannot read/);
  });

  it('saves profiles readable by their owner only; the environment overrides them', () => {
    const env = { PLATFORM_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'platform-cli-')), 'cfg') };
    saveProfile('default', { url: 'http://a', api_key: 'sv_test_a' }, env);
    saveProfile('prod', { url: 'http://b', api_key: 'sv_live_b' }, env);
    expect(statSync(profileFilePath(env)).mode & 0o777).toBe(0o600);
    expect(resolveProfile(undefined, env)).toMatchObject({ name: 'default', url: 'http://a', api_key: 'sv_test_a' });
    expect(resolveProfile('prod', env)).toMatchObject({ url: 'http://b', api_key: 'sv_live_b' });
    expect(resolveProfile('prod', { ...env, PLATFORM_URL: 'http://ci', PLATFORM_API_KEY: 'sv_live_ci' })).toMatchObject({
      url: 'http://ci',
      api_key: 'sv_live_ci',
    });
    expect(() => resolveProfile('nope', env)).toThrow(UsageError);
    expect(() => resolveProfile(undefined, { PLATFORM_CONFIG_DIR: '/nonexistent' })).toThrow(/not logged in/);
  });

  it('reads no profile file when the environment gives the URL and a credential (a pipeline)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-cli-'));
    writeFileSync(join(dir, 'profiles.json'), 'not JSON');
    const env = { PLATFORM_CONFIG_DIR: dir, PLATFORM_URL: 'http://ci', PLATFORM_TOKEN: 'jwt', PLATFORM_TENANT: 't1' };
    expect(resolveProfile(undefined, env)).toEqual({ name: 'default', url: 'http://ci', token: 'jwt', tenant: 't1' });
    // Without a credential in the environment the file is needed, and read.
    expect(() => resolveProfile(undefined, { PLATFORM_CONFIG_DIR: dir, PLATFORM_URL: 'http://ci' })).toThrow(/not valid JSON/);
  });

  it('prints aligned tables', () => {
    expect(
      table(
        [{ a: 'x', b: null }],
        [
          { header: 'name', value: (r) => r.a },
          { header: 'value', value: (r) => r.b },
        ],
      ),
    ).toBe('NAME  VALUE\nx     -');
  });

  it('is a package of its own: a `platform` bin, ESM with a Node floor, only registry packages at run time', () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({ platform: 'dist/bundle/platform.js' });
    expect(manifest.engines).toEqual({ node: expect.stringMatching(/^>=\d+/) });
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual(['@platform-sdk/client', 'commander', 'yaml']);
    expect(readFileSync(join(import.meta.dirname, '../bundle/platform.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });
});
