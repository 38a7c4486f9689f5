#!/usr/bin/env node
// `npm run admin -- create-tenant --name <name> --email <owner> [--json] [--url <gateway> --token <admin token>]`
// Creates a tenant, its owner, organization and both data planes, and prints one live and one
// test tenant key, once. Directly on the database by default (the system role, as db:setup made
// it); against a running platform with --url (POST /account/tenants with PLATFORM_ADMIN_TOKEN).
//
// `npm run admin -- reseal-secrets`
// After a master key rotation (MASTER_KEYS=<new>,<old>): re-seals every sealed value under the
// current key, on the database, with progress; exits 1 while anything is left under another key.
import 'reflect-metadata';
import { Command } from 'commander';
import { ConfigError, loadConfig, resolveMasterKeys } from '@platform/common';
import { DatabaseUnavailableError, createDataSource, databaseSettings, describeDatabaseError } from '@platform/db';
import type { DataSource } from 'typeorm';
import { loadKeyHasher } from '../api-keys/key-hasher.js';
import { AccountConfig } from '../config/account.config.js';
import { provisionTenant, type ProvisionedTenant } from '../tenants/tenant-provisioning.js';
import { resealSecrets } from './reseal-secrets.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Runs `work` on the database as the system role, as db:setup made it. */
async function onDatabase<T>(work: (dataSource: DataSource, config: AccountConfig) => Promise<T>): Promise<T> {
  const config = loadConfig(AccountConfig, process.env, { PORT: 1 });
  const settings = databaseSettings({ ...process.env, DATABASE_URL: config.DATABASE_URL });
  const dataSource = createDataSource({ connection: settings.system, schema: 'account', applicationName: 'platform-admin', poolSize: 1 });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new DatabaseUnavailableError(
      `${describeDatabaseError(error, settings.system)}\nHas the database been set up? Run \`npm start\` or \`npm run db:setup\` first.`,
    );
  }
  try {
    return await work(dataSource, config);
  } finally {
    await dataSource.destroy();
  }
}

function createOnDatabase(name: string, email: string): Promise<ProvisionedTenant> {
  return onDatabase((dataSource, config) =>
    dataSource.transaction(async (m) => {
      // The owner's seat goes to the usage outbox with the tenant: the account service's relay publishes it, as for a tenant made over the API.
      const made = await provisionTenant(m, await loadKeyHasher(m, resolveMasterKeys(config)), { name, ownerEmail: email, withKeys: true, actor: 'admin-cli' });
      return made.tenant;
    }),
  );
}

async function reseal(): Promise<never> {
  const report = await onDatabase((dataSource, config) => resealSecrets(dataSource, resolveMasterKeys(config), (line) => process.stdout.write(`${line}\n`)));
  const left = report.counts.reduce((sum, c) => sum + c.unreadable + c.changed, 0) + report.dataKeysUnderPrevious;
  if (left) fail(`reseal-secrets: ${left} value(s) are not under the current key yet (see above); run it again once they can be`);
  process.stdout.write('reseal-secrets: everything is sealed under the current key; the previous keys can be removed from MASTER_KEYS\n');
  process.exit(0);
}

async function onPlatform(url: string, token: string, name: string, email: string): Promise<ProvisionedTenant> {
  const res = await fetch(new URL('/account/tenants', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name, owner_email: email }),
  });
  const body = (await res.json()) as ProvisionedTenant & { message?: string };
  if (res.status !== 201) throw new Error(`${res.status}: ${body.message ?? 'tenant creation failed'}`);
  return body;
}

async function createTenant(options: { name: string; email: string; json?: boolean; url?: string; token?: string }): Promise<void> {
  const name = options.name.trim();
  if (!name) fail('--name: give the tenant a name');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email)) fail(`--email: '${options.email}' is not an e-mail address`);
  try {
    const token = options.token ?? process.env.PLATFORM_ADMIN_TOKEN;
    if (options.url && !token) fail('--url needs --token or PLATFORM_ADMIN_TOKEN');
    const tenant = options.url ? await onPlatform(options.url, token!, name, options.email) : await createOnDatabase(name, options.email);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(tenant)}\n`);
    } else {
      process.stdout.write(`Tenant '${name}' created.

  tenant id                 ${tenant.tenant_id}
  owner user id             ${tenant.user_id} (${options.email})
  organization id           ${tenant.organization_id}
  production data plane     ${tenant.production_data_plane_id}
  sandbox data plane        ${tenant.sandbox_data_plane_id}

  live key (production)     ${tenant.live_key}
  test key (sandbox)        ${tenant.test_key}

The keys are shown only now: store them somewhere safe. Try one:
  curl -H "X-API-Key: ${tenant.test_key}" http://127.0.0.1:8080/account/me
`);
    }
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    fail(`create-tenant failed: ${(error as Error).message}`);
  }
}

async function resealCommand(): Promise<void> {
  try {
    await reseal();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    fail(`reseal-secrets failed: ${(error as Error).message}`);
  }
}

const program = new Command('npm run admin --')
  .description('Operator commands of a self-hosted platform, on its database (DATABASE_URL, as db:setup made it) or through a running gateway')
  .showHelpAfterError()
  .addHelpText(
    'after',
    '\nExamples:\n  $ npm run admin -- create-tenant --name "Acme" --email owner@acme.test\n  $ npm run admin -- reseal-secrets\n  $ npm run admin -- create-tenant --help\n',
  );
program
  .command('create-tenant')
  .description('Create a tenant, its owner, organization and both data planes; print one live and one test key, once')
  .requiredOption('--name <name>', 'the tenant name')
  .requiredOption('--email <email>', "the owner's e-mail address")
  .option('--json', 'print one JSON object: { tenant_id, user_id, organization_id, production_data_plane_id, sandbox_data_plane_id, live_key, test_key }')
  .option('--url <gateway>', 'create it through a running platform (POST /account/tenants) instead of on the database')
  .option('--token <admin token>', 'with --url: the PLATFORM_ADMIN_TOKEN the services run with (default: that variable)')
  .addHelpText(
    'after',
    '\nExamples:\n  $ npm run admin -- create-tenant --name "Acme" --email owner@acme.test\n  $ npm run admin -- create-tenant --name "Acme" --email owner@acme.test --json\n  $ PLATFORM_ADMIN_TOKEN=… npm run admin -- create-tenant --name "Acme" --email owner@acme.test --url http://127.0.0.1:8080\n',
  )
  .action(createTenant);
program
  .command('reseal-secrets')
  .description(
    'After a master key rotation (MASTER_KEYS=<new>,<old>): re-seal every sealed value under the current key; exits 1 while anything is left under another',
  )
  .addHelpText('after', '\nExamples:\n  $ MASTER_KEYS=<new>,<old> npm run admin -- reseal-secrets\n')
  .action(resealCommand);
await program.parseAsync(process.argv);
