#!/usr/bin/env node
// `npm run admin:plans -- list | add --file <plan.json> [--replace] | end-period --tenant <id>`
// Plans are platform data: operators add or replace them here, directly on the database (the
// system role, as db:setup made it). A tenant moves to a plan with PUT /subscription/current.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isUuid, loadConfig, ServiceConfig } from '@platform/common';
import { DatabaseUnavailableError, createDataSource, databaseSettings, describeDatabaseError } from '@platform/db';
import type { DataSource } from 'typeorm';
import { endPeriodNow } from '../invoices/index.js';
import { listPlans, upsertPlan } from '../plans/index.js';
import { PlanFileDto } from './plan-file.dto.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function withDatabase<T>(work: (db: DataSource) => Promise<T>): Promise<T> {
  const config = loadConfig(ServiceConfig, process.env, { PORT: 1 });
  const settings = databaseSettings({ ...process.env, DATABASE_URL: config.DATABASE_URL });
  const db = createDataSource({ connection: settings.system, schema: 'subscription', applicationName: 'platform-admin', poolSize: 1 });
  try {
    await db.initialize();
  } catch (error) {
    throw new DatabaseUnavailableError(`${describeDatabaseError(error, settings.system)}\nHas the database been set up? Run \`npm run db:setup\` first.`);
  }
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

function readPlan(file: string): PlanFileDto {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`--file: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const plan = plainToInstance(PlanFileDto, raw);
  const errors = validateSync(plan, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) fail(`${file} is not a valid plan:\n${flatten(errors).join('\n')}`);
  return plan;
}

function flatten(errors: ReturnType<typeof validateSync>, path = ''): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((message) => `  ${path}${e.property}: ${message}`),
    ...flatten(e.children ?? [], `${path}${e.property}.`),
  ]);
}

async function list(): Promise<void> {
  const plans = await withDatabase((db) => listPlans(db.manager));
  process.stdout.write(`${JSON.stringify(plans, null, 2)}\n`);
}

async function add(options: { file: string; replace?: boolean }): Promise<void> {
  const plan = readPlan(options.file);
  const written = await withDatabase((db) => upsertPlan(db.manager, plan, options.replace === true));
  if (!written) fail(`plan '${plan.code}' exists already (--replace changes its terms)`);
  process.stdout.write(`plan '${plan.code}' ${options.replace ? 'written' : 'added'}\n`);
}

async function endPeriod(options: { tenant: string }): Promise<void> {
  if (!isUuid(options.tenant)) fail('--tenant: must be a tenant id (UUID)');
  const ended = await withDatabase((db) => db.transaction((m) => endPeriodNow(m, options.tenant)));
  if (!ended) fail(`tenant ${options.tenant} has no open billing period`);
  process.stdout.write(`period ${ended.period_start.toISOString()} – ${ended.period_end.toISOString()} ended; the next billing pass issues its invoice\n`);
}

/** Failures of the work itself (the database, a plan) end in one line and exit 1, never a stack trace. */
const guarded =
  <A extends unknown[]>(work: (...args: A) => Promise<void>) =>
  async (...args: A): Promise<void> => {
    try {
      await work(...args);
    } catch (error) {
      fail(`admin:plans failed: ${(error as Error).message}`);
    }
  };

const examples = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
const program = new Command('npm run admin:plans --')
  .description('Plans are platform data: list them, add or replace one, on the database (the system role, as db:setup made it)')
  .showHelpAfterError()
  .addHelpText('after', examples(['npm run admin:plans -- list', 'npm run admin:plans -- add --file plans/team.json', 'npm run admin:plans -- add --help']));
program
  .command('list')
  .description('Every plan, as JSON')
  .addHelpText('after', examples(['npm run admin:plans -- list']))
  .action(guarded(list));
program
  .command('add')
  .description('Add a plan from a JSON file (its code, limits and prices); --replace changes the terms of an existing one')
  .requiredOption('--file <plan.json>', 'the plan')
  .option('--replace', 'replace the plan with this code if it exists')
  .addHelpText('after', examples(['npm run admin:plans -- add --file plans/team.json', 'npm run admin:plans -- add --file plans/team.json --replace']))
  .action(guarded(add));
program
  .command('end-period')
  .description("End a tenant's billing period now; the next billing pass issues its invoice")
  .requiredOption('--tenant <tenant id>', 'the tenant')
  .addHelpText('after', examples(['npm run admin:plans -- end-period --tenant 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e']))
  .action(guarded(endPeriod));
await program.parseAsync(process.argv);
