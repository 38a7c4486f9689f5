// temporary: profile the engine with telemetry on/off. node bench/prof-tmp.mjs on|off <dir>
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { useTelemetry, withPlatform } from './harness.js';
import * as engine from './suites/engine.js';
import { call, createTenant } from '@platform/testing';
const [mode, dir, secs = '15', prof = 'prof'] = process.argv.slice(2);
useTelemetry(mode === 'on');
const env = { ...engine.env };
function load(args) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(import.meta.dirname, 'engine-load.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = ''; child.stdout.on('data', (c) => (out += c)); child.on('exit', () => done(JSON.parse(out.trim().split('\n').pop())));
  });
}
await withPlatform({ services: engine.services, namespace: `prof-${process.pid}`, env }, async (platform) => {
  const tenant = await createTenant(platform.gatewayUrl, engine.env.PLATFORM_ADMIN_TOKEN, 'bench');
  const headers = { 'x-api-key': tenant.test_key };
  const one = (await call(platform.gatewayUrl, '/api/v1/workflow/workflows', { headers, body: { name: 'b1', steps: [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }] } })).body.id;
  const ns = platform.serviceEnv.run.NATS_NAMESPACE;
  await load([platform.gatewayUrl, tenant.test_key, one, '3', '50', ns]);
  const r = await load([platform.gatewayUrl, tenant.test_key, one, secs, '50', ns]);
  console.log(mode, 'rps', Math.round(r.rps), 'p99', r.p99);
});
