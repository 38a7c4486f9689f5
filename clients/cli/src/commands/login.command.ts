import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { UsageError } from '../cli-errors.js';
import { command, handle, type Context } from '../command.js';
import { clientFor, saveProfile, type Profile } from '../profiles.js';

/** The key from stdin: typed without echo on a terminal, else the first line of what is piped in. */
async function readSecret(prompt: string): Promise<string> {
  const tty = process.stdin.isTTY === true;
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: tty });
  try {
    if (!tty) {
      for await (const line of rl) return line.trim();
      return '';
    }
    const answer = rl.question(prompt);
    muted = true;
    const value = await answer;
    process.stderr.write('\n');
    return value.trim();
  } finally {
    rl.close();
  }
}

interface LoginOptions {
  url?: string;
  apiKey?: string;
  token?: string;
  tenant?: string;
  profile?: string;
}

async function login(ctx: Context, o: LoginOptions): Promise<void> {
  const url = o.url ?? process.env.PLATFORM_URL ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url: '${url}' is not an http(s) URL`);
  if (o.token && !o.tenant) throw new UsageError('--token needs --tenant (the tenant id the token acts for)');
  let profile: Profile;
  if (o.token) profile = { url, token: o.token, tenant: o.tenant };
  else {
    const apiKey = o.apiKey ?? process.env.PLATFORM_API_KEY ?? (await readSecret('API key: '));
    if (!apiKey) throw new UsageError('no API key: give --api-key, set PLATFORM_API_KEY, or type it when asked');
    profile = { url, api_key: apiKey };
  }
  // Only a credential that works is saved.
  const me = await clientFor(profile).me({ signal: ctx.signal });
  const name = o.profile ?? process.env.PLATFORM_PROFILE ?? 'default';
  const file = saveProfile(name, profile);
  ctx.out.result({ profile: name, file, url, tenant_id: me.tenant_id, environment_id: me.environment_id, type: me.type, mode: me.mode ?? null }, () =>
    [
      `Logged in to ${url}: ${me.type} of tenant ${me.tenant_id}, data plane ${me.environment_id}${me.mode ? ` (${me.mode})` : ''}.`,
      `Saved as profile '${name}' in ${file} (readable by you only).`,
    ].join('\n'),
  );
}

export function loginCommand(): Command {
  return command('login', 'Check a key (or token) against the platform and save it in a profile; PLATFORM_URL and PLATFORM_API_KEY override profiles', [
    'platform login --url https://automations.example.com          # asks for the key',
    'echo "$KEY" | platform login --url http://127.0.0.1:8080 --profile sandbox',
    'platform login --url http://127.0.0.1:8080 --token "$JWT" --tenant <tenant id>',
    'PLATFORM_URL=https://automations.example.com PLATFORM_API_KEY=$KEY platform workflows push ./workflows   # no login in a pipeline',
  ])
    .option('--url <url>', 'the gateway (default PLATFORM_URL, else http://127.0.0.1:8080)')
    .option('--api-key <key>', 'the API key (default PLATFORM_API_KEY, else read from stdin; keeps it out of shell history)')
    .option('--token <jwt>', "a user's bearer token instead of a key")
    .option('--tenant <id>', 'with --token: the tenant it acts for')
    .action(handle(login));
}
