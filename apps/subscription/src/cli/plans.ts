#!/usr/bin/env node
// `npm run admin:plans -- list | add --file <plan.json> [--replace] | end-period --tenant <id>`
// Plans are platform data: operators add or replace them here, directly on the database (the
// system role, as db:setup made it). A tenant moves to a plan with PUT /subscription/current.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isUuid, loadConfig, ServiceConfig } from '@platform/common';
import { DatabaseUnavailableError, createDataSource, databaseSettings, describeDatabaseError } from '@platform/db';
import type { DataSource } from 'typeorm';
import { endPeriodNow } from '../invoices/index.js';
import { listPlans, upsertPlan } from '../plans/index.js';
import { PlanFileDto } from './plan-file.dto.js';

const USAGE = `usage: npm run admin:plans -- list
       npm run admin:plans -- add --file <plan.json> [--replace]
       npm run admin:plans -- end-period --tenant <tenant id>   (the next billing pass issues its invoice)`;

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

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { file: { type: 'string' }, replace: { type: 'boolean' }, tenant: { type: 'string' } },
});
try {
  switch (positionals[0]) {
    case 'list': {
      const plans = await withDatabase((db) => listPlans(db.manager));
      process.stdout.write(`${JSON.stringify(plans, null, 2)}\n`);
      break;
    }
    case 'add': {
      if (!values.file) fail(USAGE);
      const plan = readPlan(values.file);
      const written = await withDatabase((db) => upsertPlan(db.manager, plan, values.replace === true));
      if (!written) fail(`plan '${plan.code}' exists already (--replace changes its terms)`);
      process.stdout.write(`plan '${plan.code}' ${values.replace ? 'written' : 'added'}\n`);
      break;
    }
    case 'end-period': {
      if (!isUuid(values.tenant)) fail('--tenant: must be a tenant id (UUID)');
      const ended = await withDatabase((db) => db.transaction((m) => endPeriodNow(m, values.tenant!)));
      if (!ended) fail(`tenant ${values.tenant} has no open billing period`);
      process.stdout.write(`period ${ended.period_start.toISOString()} – ${ended.period_end.toISOString()} ended; the next billing pass issues its invoice\n`);
      break;
    }
    default:
      fail(USAGE);
  }
} catch (error) {
  fail(`admin:plans failed: ${(error as Error).message}`);
}
