#!/usr/bin/env node
// Sets the database up and runs the gateway and every service in the foreground, with their logs
// prefixed by name. Ctrl-C stops them all (each drains its in-flight requests first).
// With --with-deps (`npm start -- --with-deps`), PostgreSQL, NATS and Redis are started with
// `docker compose up -d postgres nats redis` when unreachable and Docker is on PATH.
import { spawn } from 'node:child_process';
import { SERVICES } from '@platform/common';
import { databaseSettings, setupDatabase } from '@platform/db';
import { connectNats } from '@platform/messaging';
import { dependencies, ensureDependencies, onPath, reachable, serviceMigrations, startPlatform } from '@platform/launcher';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/platform';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const gatewayPort = Number(process.env.GATEWAY_PORT ?? 8080);
const width = Math.max(...Object.keys(SERVICES).map((n) => n.length), 'gateway'.length);

function die(message) {
  console.error(`\n[platform] cannot start:\n  ${message.split('\n').join('\n  ')}\n`);
  process.exit(1);
}

// `npm start --with-deps` (without `--`) reaches here as npm's own setting, in the environment.
const withDeps = process.argv.includes('--with-deps') || process.env.npm_config_with_deps === 'true';

try {
  await ensureDependencies(dependencies({ ...process.env, DATABASE_URL: databaseUrl, NATS_URL: natsUrl }), withDeps, {
    probe: (d) => reachable(d),
    docker: () => onPath('docker'),
    run: (argv) =>
      new Promise((resolve) =>
        spawn(argv[0], argv.slice(1), { stdio: 'inherit' })
          .on('close', (code) => resolve(code ?? 1))
          .on('error', () => resolve(1)),
      ),
    log: (line) => console.log(line),
  });
} catch (error) {
  die(error.message);
}

try {
  console.log('==> checking NATS');
  const nc = await connectNats({ url: natsUrl, name: 'platform-start' });
  await nc.close();
  console.log('==> setting the database up');
  await setupDatabase({
    settings: databaseSettings({ ...process.env, DATABASE_URL: databaseUrl }),
    services: await serviceMigrations(),
    log: (line) => console.log(`    ${line}`),
  });
} catch (error) {
  die(error.message);
}

console.log('==> starting services');
let platform;
try {
  platform = await startPlatform({
    databaseUrl,
    fixedPorts: true,
    gatewayPort,
    env: { NATS_URL: natsUrl },
    onLine: (name, line) => console.log(`${name.padEnd(width)} | ${line}`),
    onReady: (name, url) => console.log(`${name.padEnd(width)} | ready at ${url}`),
  });
} catch (error) {
  die(error.message);
}

console.log(`
Platform is up.
  Gateway:        ${platform.gatewayUrl}
  Health:         ${platform.gatewayUrl}/actuator/health
  API explorer:   ${platform.gatewayUrl}/swagger-ui
  OpenAPI:        ${platform.gatewayUrl}/v3/api-docs
Press Ctrl-C to stop.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\n==> stopping (draining in-flight requests)');
  await platform.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
