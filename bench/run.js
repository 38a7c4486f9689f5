#!/usr/bin/env node
// `npm run bench [-- suite ...] [--duration=S] [--connections=N] [--telemetry]`: starts what each
// suite needs against a database of its own, runs the load from a separate process and prints the
// figures. `--telemetry` runs the services with traces (to a local OTLP receiver) and metrics on;
// without it both are off, so the two runs compare (harness.js).
import { telemetryReport, useTelemetry, withPlatform } from './harness.js';
import * as auth from './suites/auth.js';
import * as cli from './suites/cli.js';
import * as connectors from './suites/connectors.js';
import * as consoleApp from './suites/console.js';
import * as dataQuery from './suites/data-query.js';
import * as engine from './suites/engine.js';
import * as gateway from './suites/gateway.js';
import * as kb from './suites/kb.js';
import * as notifications from './suites/notifications.js';
import * as portal from './suites/portal.js';
import * as subscription from './suites/subscription.js';
import * as telemetrySuite from './suites/telemetry.js';
import * as tasks from './suites/tasks.js';
import * as triggers from './suites/triggers.js';

const SUITES = [gateway, auth, engine, telemetrySuite, dataQuery, triggers, tasks, notifications, subscription, portal, connectors, kb, cli, consoleApp];

const args = process.argv.slice(2);
const option = (key, fallback) => Number(args.find((a) => a.startsWith(`--${key}=`))?.split('=')[1] ?? fallback);
const chosen = args.filter((a) => !a.startsWith('--'));
const duration = option('duration', 10);
useTelemetry(args.includes('--telemetry'));
const connections = option('connections', 50);
const suites = chosen.length ? SUITES.filter((s) => chosen.includes(s.name)) : SUITES;
if (!suites.length) {
  console.error(`unknown suite; choose from: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

const report = [];
for (const suite of suites) {
  console.log(`==> ${suite.name}`);
  await withPlatform({ services: suite.services, namespace: `bench-${suite.name}-${process.pid}`, env: suite.env }, async (platform, database) => {
    const context = { platform, database, duration, connections };
    if (suite.prepare) await suite.prepare(context);
    report.push(`[${suite.name}]`, ...(await suite.run(context)), '');
  });
}
console.log(`\nResults (${duration} s per measurement, ${connections} connections, ${(await import('node:os')).cpus().length} cores):\n`);
console.log(report.join('\n'));
console.log(telemetryReport());
