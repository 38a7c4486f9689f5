import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createClient, type PlatformClient } from '@platform-sdk/client';
import { nodeHttp } from '@platform-sdk/client/node-http';
import { UsageError } from './cli-errors.js';

/** One saved login: where the platform is and the credential for it. */
export interface Profile {
  url: string;
  api_key?: string;
  token?: string;
  tenant?: string;
}

interface ProfileFile {
  profiles: Record<string, Profile>;
}

/** `$PLATFORM_CONFIG_DIR/profiles.json`, else `$XDG_CONFIG_HOME/platform/…`, else `~/.config/platform/…`. */
export function profileFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PLATFORM_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'platform');
  return join(dir, 'profiles.json');
}

function readProfiles(file: string): ProfileFile {
  if (!existsSync(file)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProfileFile>;
    return { profiles: parsed.profiles ?? {} };
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON (${(error as Error).message}): fix it or run \`platform login\` again`);
  }
}

/** Saves a profile; the file holds credentials, so only its owner may read it (0600, in a 0700 folder). */
export function saveProfile(name: string, profile: Profile, env: NodeJS.ProcessEnv = process.env): string {
  const file = profileFilePath(env);
  const all = readProfiles(file);
  all.profiles[name] = profile;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * The connection a command uses: the profile (`--profile`, else PLATFORM_PROFILE, else
 * `default`), with PLATFORM_URL, PLATFORM_API_KEY, PLATFORM_TOKEN and PLATFORM_TENANT taking
 * precedence, which is how a pipeline passes its secrets without a file.
 */
export function resolveProfile(profileName: string | undefined, env: NodeJS.ProcessEnv = process.env): Profile & { name: string } {
  const name = profileName ?? env.PLATFORM_PROFILE ?? 'default';
  const fromEnv = env.PLATFORM_API_KEY
    ? { api_key: env.PLATFORM_API_KEY }
    : env.PLATFORM_TOKEN
      ? { token: env.PLATFORM_TOKEN, tenant: env.PLATFORM_TENANT }
      : undefined;
  // A pipeline's environment says everything: no profile file is read (nor needs to be valid).
  if (env.PLATFORM_URL && fromEnv) return { name, url: env.PLATFORM_URL, ...fromEnv };
  const saved = readProfiles(profileFilePath(env)).profiles[name];
  if (profileName && !saved && !env.PLATFORM_URL)
    throw new UsageError(`no profile '${name}' in ${profileFilePath(env)}: run \`platform login --profile ${name}\``);
  const url = env.PLATFORM_URL ?? saved?.url;
  const credential = fromEnv ?? (saved ? { api_key: saved.api_key, token: saved.token, tenant: env.PLATFORM_TENANT ?? saved.tenant } : {});
  if (!url || (!credential.api_key && !credential.token)) {
    throw new UsageError('not logged in: run `platform login`, or set PLATFORM_URL and PLATFORM_API_KEY');
  }
  return { name, url, ...credential };
}

export function clientFor(profile: Profile): PlatformClient {
  const version = '0.1.0';
  return createClient({
    baseUrl: profile.url,
    apiKey: profile.api_key,
    token: profile.api_key ? undefined : profile.token,
    tenant: profile.tenant,
    headers: { 'user-agent': `platform-cli/${version} node/${process.versions.node}` },
    // node:http, not global fetch: loading fetch would cost every command tens of milliseconds.
    fetch: nodeHttp,
  });
}
