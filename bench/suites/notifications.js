// Notifications: sends accepted per second through the gateway (each rendered, counted against
// the tenant's limit, stored and queued), deliveries per second to a local stand-in webhook (a
// Teams channel), and the time from acceptance (the row's created_at, written before the 202) to
// delivery (its delivered_at, written once the stand-in answered).
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { call, createTenant } from '@platform/testing';
import { load, progress, row } from '../harness.js';

export const name = 'notifications';
export const services = ['account', 'notification'];
const adminToken = randomBytes(32).toString('base64url');
export const env = {
  PLATFORM_ADMIN_TOKEN: adminToken,
  MASTER_KEY: randomBytes(32).toString('base64'),
  // One API key sends the whole burst: neither the gateway's nor the tenant's sending limit is measured here.
  RATE_LIMIT_ENABLED: 'false',
  NOTIFICATION_LIMIT_PER_MINUTE: '1000000',
  NOTIFICATION_LIMIT_PER_DAY: '100000000',
  NOTIFICATION_ALLOW_PRIVATE_NETWORKS: 'true',
};

export async function run({ platform, database, duration, connections }) {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('1');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const gatewayUrl = platform.gatewayUrl;
    const tenant = await createTenant(gatewayUrl, adminToken, 'bench');
    const headers = { 'x-api-key': tenant.test_key, 'content-type': 'application/json' };
    const channel = (
      await call(gatewayUrl, '/notifications/channels', {
        headers,
        body: { name: 'bench', kind: 'teams', teams: { webhook_url: `http://127.0.0.1:${server.address().port}/hook` } },
      })
    ).body;
    const body = JSON.stringify({
      channel_id: channel.id,
      subject: 'Bench',
      body: 'Build **{{n}}** finished. [Logs](https://ci.example.com/{{n}})',
      variables: { n: 42 },
    });
    const send = (seconds, base = gatewayUrl) => load(`${base}/notifications/send`, { duration: seconds, connections, headers, method: 'POST', body });
    const drain = async () => {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const { rows } = await db.query(`select count(*)::int as owed from notification.notifications where status in ('queued', 'sending', 'retrying')`);
        if (rows[0].owed === 0 || Date.now() > deadline) return rows[0].owed;
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    progress('warming up');
    await send(3);
    await drain();
    const since = new Date();
    progress(`sends, ${duration} s at ${connections} connections`);
    const accepted = await send(duration);
    const owed = await drain();
    const { rows } = await db.query(
      `select count(*)::int as delivered,
              extract(epoch from max(delivered_at) - min(created_at))::float8 as span_s,
              percentile_cont(0.5) within group (order by extract(epoch from delivered_at - created_at) * 1000) as p50,
              percentile_cont(0.99) within group (order by extract(epoch from delivered_at - created_at) * 1000) as p99
         from notification.notifications where created_at >= $1 and status = 'delivered'`,
      [since],
    );
    const m = rows[0];
    // The same sends straight to the service, without the gateway's hop: what the service itself accepts.
    progress(`sends straight to the notification service, ${duration} s at ${connections} connections`);
    const direct = await send(duration, platform.serviceUrls.notification);
    await drain();
    return [
      row(`send, no gateway (service port), ${connections} conns`, direct),
      row(`send (Teams channel), ${connections} conns`, accepted),
      `notifications: ${Math.round(accepted.rps)} accepted/s (target ≥ 1,000); ${m.delivered} delivered in ${m.span_s.toFixed(1)} s from the first acceptance = ${Math.round(m.delivered / m.span_s)} delivered/s; ${owed} still owed`,
      `accept → delivered p50 ${Math.round(m.p50)} ms, p99 ${Math.round(m.p99)} ms (target p99 < 500 ms); ${received} requests at the stand-in (warm-up included)`,
    ];
  } finally {
    await db.end();
    server.close();
  }
}
