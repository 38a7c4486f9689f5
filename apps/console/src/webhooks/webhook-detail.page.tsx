import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { DeliveryFilters, WebhookDelivery } from '@platform-sdk/client';
import { ok } from '../shell/api';
import { ErrorMessage, ListState, Loading, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';

const OUTCOMES = ['accepted', 'duplicate', 'rejected'] as const;

/** One webhook and its delivery log, newest first, filtered by outcome (`?outcome=`); accepted deliveries can be replayed. */
export function WebhookDetailPage() {
  const { id = '' } = useParams();
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const webhook = useAsync(() => client.webhooks.get(id), id);
  const filters: DeliveryFilters = {};
  const outcome = params.get('outcome');
  if (outcome && (OUTCOMES as readonly string[]).includes(outcome)) filters.outcome = outcome as DeliveryFilters['outcome'];
  const [replayed, setReplayed] = useState<string | null | undefined>(undefined);
  const deliveries = usePaged((cursor) => onePage(client.webhooks.logs(id, filters, { pageSize: PAGE_SIZE, cursor })), `deliveries:${id}:${params.toString()}`);

  if (!webhook.value && webhook.loading) return <Loading />;
  if (!webhook.value) return <ErrorMessage message={webhook.error ?? 'Not found'} retry={webhook.reload} />;
  const value = webhook.value;

  return (
    <section aria-labelledby="webhook-title">
      <p>
        <Link to="/webhooks">All webhooks</Link>
      </p>
      <h1 id="webhook-title">Webhook {value.name}</h1>
      <dl className="facts">
        <dt>Receiving address</dt>
        <dd>
          <code>{new URL(value.url, window.location.origin).href}</code>
        </dd>
        <dt>Workflow</dt>
        <dd>
          <Link to={`/workflows/${value.workflow_id}`}>{value.workflow_id}</Link>
        </dd>
        <dt>Verification</dt>
        <dd>
          {value.verification.type}
          {value.verification.header && ` (${value.verification.header})`}
        </dd>
        <dt>Status</dt>
        <dd>{value.enabled ? 'enabled' : 'disabled'}</dd>
      </dl>
      <div className="title-row">
        <h2>Deliveries</h2>
        <div className="filters" role="search">
          <label>
            Outcome
            <select
              value={filters.outcome ?? ''}
              onChange={(e) => {
                const next = new URLSearchParams(params);
                if (e.target.value) next.set('outcome', e.target.value);
                else next.delete('outcome');
                setParams(next);
              }}
            >
              <option value="">Any</option>
              {OUTCOMES.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </label>
          <button type="button" className="secondary" onClick={deliveries.reload}>
            Refresh
          </button>
        </div>
      </div>
      {replayed !== undefined && (
        <p role="status">
          Replayed: {replayed ? <Link to={`/executions/${replayed}`}>run {replayed.slice(0, 8)}</Link> : 'the run service did not start a run'}
        </p>
      )}
      <ListState state={deliveries} empty="No deliveries yet.">
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Outcome</th>
              <th scope="col">Answer</th>
              <th scope="col">Run</th>
              <th scope="col">Request</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.items.map((delivery) => (
              <DeliveryRow
                key={delivery.id}
                webhookId={id}
                delivery={delivery}
                onReplayed={(runId) => {
                  setReplayed(runId);
                  deliveries.reload();
                }}
              />
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}

function DeliveryRow({ webhookId, delivery, onReplayed }: { webhookId: string; delivery: WebhookDelivery; onReplayed: (runId: string | null) => void }) {
  const client = useClient();
  const action = useAction();
  const replay = () =>
    action.run(async () => {
      const answer = await ok(client.api.POST('/webhooks/{id}/logs/{deliveryId}/replay', { params: { path: { id: webhookId, deliveryId: delivery.id } } }));
      onReplayed(answer.run_id);
    });
  return (
    <tr data-testid="delivery">
      <th scope="row">
        <When at={delivery.received_at} />
        {delivery.replay_of && <span className="muted"> (replay)</span>}
      </th>
      <td>
        <span className={`status status-${delivery.outcome}`}>{delivery.outcome}</span>
        {delivery.reason && <span className="muted"> {delivery.reason}</span>}
      </td>
      <td>{delivery.status_code}</td>
      <td>{delivery.run_id ? <Link to={`/executions/${delivery.run_id}`}>{delivery.run_id.slice(0, 8)}</Link> : <span className="muted">—</span>}</td>
      <td>
        <details>
          <summary>
            {delivery.method} {delivery.content_type ?? ''}
          </summary>
          <pre className="json" tabIndex={0} aria-label="Headers">
            {JSON.stringify(delivery.headers, null, 2)}
          </pre>
          <pre className="json" tabIndex={0} aria-label="Body">
            {delivery.body}
            {delivery.body_truncated && '\n… (first 64 KiB)'}
          </pre>
        </details>
      </td>
      <td className="actions">
        {delivery.outcome === 'accepted' && (
          <button type="button" className="secondary" disabled={action.busy} onClick={replay} aria-label={`Replay delivery ${delivery.id.slice(0, 8)}`}>
            Replay
          </button>
        )}
        {action.error && <ErrorMessage message={action.error} />}
      </td>
    </tr>
  );
}
