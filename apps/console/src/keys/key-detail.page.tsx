import { Link, useParams, useSearchParams } from 'react-router';
import { ok } from '../shell/api';
import { ErrorMessage, ListState, Loading, When } from '../shell/list-state';
import { fromLocalInput, isoParam, toLocalInput } from '../shell/local-time';
import { useClient } from '../shell/session-context';
import { useAsync } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';

/** `GET /account/api-keys/{keyId}/usage` (its schema is not in the OpenAPI: the account service's `KeyUsage`). */
interface KeyUsage {
  from: string;
  to: string;
  total: number;
  success: number;
  error: number;
  by_endpoint: { endpoint: string; count: number }[];
  by_day: { date: string; count: number }[];
}

/** One entry of `GET /account/audit-logs`. */
interface AuditEntry {
  id: string;
  key_name: string | null;
  method: string;
  endpoint: string;
  status: 'success' | 'error';
  http_status: number;
  request_id: string | null;
  ip: string | null;
  created_at: string;
}

const DAY = 24 * 3600 * 1000;
const WINDOWS = [1, 7, 30, 90] as const;

/**
 * One key: its requests over a window (`?days=`, default 30) by endpoint and day, and its audit
 * log filtered by this key's id (names are not unique), result (`?status=`) and time (`?from=&to=`).
 */
export function KeyDetailPage() {
  const { id = '' } = useParams();
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const days = WINDOWS.find((d) => String(d) === params.get('days')) ?? 30;
  const status = params.get('status') === 'success' || params.get('status') === 'error' ? (params.get('status') as 'success' | 'error') : undefined;
  const key = useAsync(() => client.keys.get(id), id);
  const usage = useAsync(
    () =>
      ok(
        client.api.GET('/account/api-keys/{keyId}/usage', {
          params: { path: { keyId: id }, query: { from: new Date(Date.now() - days * DAY).toISOString() } },
        }),
      ) as Promise<KeyUsage>,
    `usage:${id}:${days}`,
  );
  const from = isoParam(params.get('from'));
  const to = isoParam(params.get('to'));
  const audit = usePaged(
    (cursor) => onePage(client.list<AuditEntry>('/account/audit-logs', { key_id: id, status, from, to }, { pageSize: PAGE_SIZE, cursor })),
    `audit:${id}:${status ?? ''}:${from ?? ''}:${to ?? ''}`,
  );
  const set = (param: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(param, value);
    else next.delete(param);
    setParams(next);
  };

  if (!key.value && key.loading) return <Loading />;
  if (!key.value) return <ErrorMessage message={key.error ?? 'Not found'} retry={key.reload} />;
  const k = key.value;

  return (
    <section aria-labelledby="key-title">
      <p>
        <Link to="/keys">All API keys</Link>
      </p>
      <h1 id="key-title">API key {k.name}</h1>
      <dl className="facts">
        <dt>Prefix</dt>
        <dd>
          <code>{k.prefix}…</code>
        </dd>
        <dt>Status</dt>
        <dd>{k.status}</dd>
        <dt>Scopes</dt>
        <dd>{k.scopes.join(', ')}</dd>
        <dt>Last used</dt>
        <dd>
          <When at={k.last_used_at} />
        </dd>
      </dl>
      <div className="title-row">
        <h2>Usage</h2>
        <label>
          Over the last
          <select value={days} onChange={(e) => set('days', e.target.value === '30' ? '' : e.target.value)}>
            {WINDOWS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? '24 hours' : `${d} days`}
              </option>
            ))}
          </select>
        </label>
      </div>
      {usage.loading && !usage.value && <Loading />}
      {usage.error && <ErrorMessage message={usage.error} retry={usage.reload} />}
      {usage.value && <UsageSummary usage={usage.value} />}
      <h2>Audit log</h2>
      <div className="filters" role="search" aria-label="Audit log filters">
        <label>
          Result
          <select value={status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            <option value="success">success</option>
            <option value="error">error</option>
          </select>
        </label>
        <label>
          From
          <input type="datetime-local" value={toLocalInput(from)} onChange={(e) => set('from', fromLocalInput(e.target.value))} />
        </label>
        <label>
          Until
          <input type="datetime-local" value={toLocalInput(to)} onChange={(e) => set('to', fromLocalInput(e.target.value))} />
        </label>
      </div>
      <p className="hint">Without a start, the last 30 days.</p>
      <ListState state={audit} empty="No requests with this key recorded in this window.">
        <table aria-label="Audit log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Request</th>
              <th scope="col">Status</th>
              <th scope="col">Address</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {audit.items.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">
                  <When at={entry.created_at} />
                </th>
                <td>
                  <code>
                    {entry.method} {entry.endpoint}
                  </code>
                </td>
                <td>
                  <span className={`status status-${entry.status === 'success' ? 'succeeded' : 'failed'}`}>{entry.http_status}</span>
                </td>
                <td>{entry.ip ?? '—'}</td>
                <td>
                  <code>{entry.request_id ?? '—'}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}

function UsageSummary({ usage }: { usage: KeyUsage }) {
  if (usage.total === 0) return <p className="empty">No requests in this window.</p>;
  return (
    <>
      <p data-testid="usage-totals">
        {usage.total} requests: {usage.success} succeeded, {usage.error} failed.
      </p>
      <div className="columns">
        <table aria-label="Requests per endpoint">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {usage.by_endpoint.map((row) => (
              <tr key={row.endpoint}>
                <th scope="row">
                  <code>{row.endpoint}</code>
                </th>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table aria-label="Requests per day">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {usage.by_day.map((row) => (
              <tr key={row.date}>
                <th scope="row">{row.date}</th>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
