import { startOtlpReceiver, createTestDatabase, call, createTenant } from '@platform/testing';
import { startPlatform } from '@platform/testing';
import * as engine from './suites/engine.js';
const receiver = await startOtlpReceiver({ keepSpans: true });
const database = await createTestDatabase('bench');
const ns = `spans-${process.pid}`;
const platform = await startPlatform({ databaseUrl: database.url, services: engine.services, env: { LOG_LEVEL: 'warn', NATS_NAMESPACE: ns, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200', ...engine.env } });
try {
  const tenant = await createTenant(platform.gatewayUrl, engine.env.PLATFORM_ADMIN_TOKEN, 'bench');
  const headers = { 'x-api-key': tenant.test_key };
  const one = (await call(platform.gatewayUrl, '/api/v1/workflow/workflows', { headers, body: { name: 'b1', steps: [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }] } })).body.id;
  await new Promise((r) => setTimeout(r, 2000));
  receiver.spans.length = 0;
  const ids = [];
  for (let i = 0; i < 20; i++) ids.push((await call(platform.gatewayUrl, '/v1/automations/run', { headers, body: { automation_id: one, input: { x: 1 } } })).body.run_id);
  await new Promise((r) => setTimeout(r, 3000));
  const by = new Map();
  for (const s of receiver.spans) { const k = `${s.service} ${s.kind} ${s.name}`; by.set(k, (by.get(k) ?? 0) + 1); }
  console.log([...by].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${(n / 20).toFixed(2)} ${k}`).join('\n'));
} finally { await platform.stop(); await receiver.stop(); await database.drop(); }
