import { useState } from 'react';
import { Link } from 'react-router';
import type { Webhook } from '@platform-sdk/client';
import { ok } from '../shell/api';
import { ErrorMessage, ListState } from '../shell/list-state';
import { SecretOnce } from '../shell/secret-once';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';
import { CreateWebhookForm } from './create-webhook.form';

export function WebhooksPage() {
  const client = useClient();
  const webhooks = usePaged((cursor) => onePage(client.webhooks.list({}, { pageSize: PAGE_SIZE, cursor })), 'webhooks');
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  return (
    <section aria-labelledby="webhooks-title">
      <div className="title-row">
        <h1 id="webhooks-title">Webhooks</h1>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          Create webhook
        </button>
      </div>
      {secret && <SecretOnce title={`Signing secret of “${secret.name}”`} label="New webhook secret" value={secret.value} onDone={() => setSecret(null)} />}
      {creating && (
        <CreateWebhookForm
          onCreated={(webhook) => {
            setCreating(false);
            if (webhook.secret) setSecret({ name: webhook.name, value: webhook.secret });
            webhooks.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <ListState state={webhooks} empty="No webhooks yet.">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Receiving address</th>
              <th scope="col">Workflow</th>
              <th scope="col">Verification</th>
              <th scope="col">Answer</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {webhooks.items.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} onSecret={(value) => setSecret({ name: webhook.name, value })} />
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}

/** One webhook: enable or disable it (PATCH `enabled`), replace its secret, open its deliveries. */
function WebhookRow({ webhook: initial, onSecret }: { webhook: Webhook; onSecret: (secret: string) => void }) {
  const client = useClient();
  const [webhook, setWebhook] = useState(initial);
  const action = useAction();
  const toggle = () => action.run(async () => setWebhook(await client.webhooks.update(webhook.id, { enabled: !webhook.enabled })));
  const rotate = () =>
    action.run(async () => {
      const rotated = await ok(client.api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id: webhook.id } } }));
      if (rotated.secret) onSecret(rotated.secret);
    });
  return (
    <tr>
      <th scope="row">
        <Link to={`/webhooks/${webhook.id}`}>{webhook.name}</Link>
      </th>
      <td>
        <code>{webhook.url}</code>
      </td>
      <td>
        <Link to={`/workflows/${webhook.workflow_id}`}>{webhook.workflow_id.slice(0, 8)}</Link>
      </td>
      <td>{webhook.verification.type}</td>
      <td>{webhook.response.mode}</td>
      <td>
        <span className={`status status-${webhook.enabled ? 'enabled' : 'disabled'}`} data-testid={`webhook-status-${webhook.name}`}>
          {webhook.enabled ? 'enabled' : 'disabled'}
        </span>
      </td>
      <td className="actions">
        <button
          type="button"
          className="secondary"
          disabled={action.busy}
          onClick={toggle}
          aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.name}`}
        >
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
        {webhook.verification.type !== 'none' && (
          <button type="button" className="secondary" disabled={action.busy} onClick={rotate} aria-label={`New secret for ${webhook.name}`}>
            New secret
          </button>
        )}
        {action.error && <ErrorMessage message={action.error} />}
      </td>
    </tr>
  );
}
