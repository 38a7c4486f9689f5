import { useState } from 'react';
import { Link } from 'react-router';
import type { ApiKey, CreatedApiKey } from '@platform-sdk/client';
import { ErrorMessage, ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';
import { CreateKeyForm } from './create-key.form';
import { SecretOnce } from '../shell/secret-once';

export function KeysPage() {
  const client = useClient();
  const keys = usePaged((cursor) => onePage(client.keys.list({}, { pageSize: PAGE_SIZE, cursor })), 'keys');
  const [created, setCreated] = useState<{ title: string; key: CreatedApiKey } | null>(null);
  const [creating, setCreating] = useState(false);

  const shown = (title: string) => (key: CreatedApiKey) => {
    setCreated({ title, key });
    setCreating(false);
    keys.reload();
  };

  return (
    <section aria-labelledby="keys-title">
      <div className="title-row">
        <h1 id="keys-title">API keys</h1>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          Create key
        </button>
      </div>
      {created && <SecretOnce title={created.title} value={created.key.key} onDone={() => setCreated(null)} />}
      {creating && <CreateKeyForm onCreated={shown('Key created')} onCancel={() => setCreating(false)} />}
      <ListState state={keys} empty="No API keys yet.">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Type</th>
              <th scope="col">Mode</th>
              <th scope="col">Scopes</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.items.map((key) => (
              <KeyRow key={key.id} apiKey={key} onRotated={shown(`Key “${key.name}” rotated: its successor`)} onChanged={keys.reload} />
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}

function KeyRow({ apiKey, onRotated, onChanged }: { apiKey: ApiKey; onRotated: (key: CreatedApiKey) => void; onChanged: () => void }) {
  const client = useClient();
  const [confirm, setConfirm] = useState<'revoke' | 'rotate' | null>(null);
  const [transition, setTransition] = useState('3600');
  const action = useAction();
  const active = apiKey.status === 'active';
  return (
    <tr data-key-id={apiKey.id}>
      <th scope="row">
        <Link to={`/keys/${apiKey.id}`}>{apiKey.name}</Link>
      </th>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>{apiKey.type}</td>
      <td>{apiKey.mode}</td>
      <td className="scopes">{apiKey.scopes.join(', ')}</td>
      <td>
        <span className={`status status-${apiKey.status}`}>{apiKey.status}</span>
      </td>
      <td>
        <When at={apiKey.expires_at} />
      </td>
      <td>
        <When at={apiKey.last_used_at} />
      </td>
      <td className="actions">
        {active && confirm === null && (
          <>
            <button type="button" className="secondary" onClick={() => setConfirm('rotate')} aria-label={`Rotate ${apiKey.name}`}>
              Rotate
            </button>
            <button type="button" className="danger" onClick={() => setConfirm('revoke')} aria-label={`Revoke ${apiKey.name}`}>
              Revoke
            </button>
          </>
        )}
        {confirm === 'revoke' && (
          <div className="confirm" role="group" aria-label={`Confirm revoking ${apiKey.name}`}>
            <span>Revoke “{apiKey.name}”? Calls with it fail at once.</span>
            <button type="button" className="danger" disabled={action.busy} onClick={() => action.run(() => client.keys.revoke(apiKey.id).then(onChanged))}>
              Yes, revoke
            </button>
            <button type="button" className="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </div>
        )}
        {confirm === 'rotate' && (
          <div className="confirm" role="group" aria-label={`Rotate ${apiKey.name}`}>
            <label>
              Old key keeps working for (seconds)
              <input type="number" min={0} value={transition} onChange={(e) => setTransition(e.target.value)} />
            </label>
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                action.run(() =>
                  client.keys.rotate(apiKey.id, { transitionPeriodSeconds: Number(transition) || 0 }).then((next) => {
                    setConfirm(null);
                    onRotated(next);
                  }),
                )
              }
            >
              Rotate key
            </button>
            <button type="button" className="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </div>
        )}
        {action.error && <ErrorMessage message={action.error} />}
      </td>
    </tr>
  );
}
