import { useState, type FormEvent } from 'react';
import type { CreateApiKeyRequest, CreatedApiKey } from '@platform-sdk/client';
import { ErrorMessage } from '../shell/list-state';
import { useClient, useSession } from '../shell/session-context';
import { useAction } from '../shell/use-async';

type Scope = CreateApiKeyRequest['scopes'][number];

/** The scopes offered as checkboxes; `*` grants all of them. */
const SCOPES: Scope[] = [
  '*',
  'automations:run',
  'workflows:read',
  'workflows:write',
  'executions:read',
  'executions:write',
  'tasks:read',
  'tasks:write',
  'triggers:read',
  'triggers:write',
  'webhooks:read',
  'webhooks:write',
  'data:read',
  'data:write',
  'account:read',
  'api_keys:manage',
];

export function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const client = useClient();
  const { me } = useSession();
  const [name, setName] = useState('');
  const [type, setType] = useState<'tenant' | 'customer'>('tenant');
  const [customerId, setCustomerId] = useState('');
  const [expires, setExpires] = useState('');
  const [scopes, setScopes] = useState<Set<Scope>>(new Set(['automations:run', 'executions:read']));
  const action = useAction();

  const toggle = (scope: Scope) =>
    setScopes((before) => {
      const next = new Set(before);
      if (next.has(scope)) next.delete(scope);
      else next.add(scope);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.run(async () =>
      onCreated(
        await client.keys.create({
          name,
          type,
          customer_id: type === 'customer' ? customerId : null,
          scopes: [...scopes],
          expires_at: expires ? new Date(`${expires}T23:59:59Z`).toISOString() : null,
          // The key is made in the data plane the console's own key works in.
          data_plane_id: me.environment_id,
        }),
      ),
    );
  };

  return (
    <form className="panel" onSubmit={submit} aria-label="Create API key">
      <h2>New API key</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <fieldset>
        <legend>Key type</legend>
        <label className="inline">
          <input type="radio" name="key-type" checked={type === 'tenant'} onChange={() => setType('tenant')} /> Tenant key
        </label>
        <label className="inline">
          <input type="radio" name="key-type" checked={type === 'customer'} onChange={() => setType('customer')} /> Customer key
        </label>
      </fieldset>
      {type === 'customer' && (
        <label>
          Customer id
          <input value={customerId} onChange={(e) => setCustomerId(e.target.value)} required />
        </label>
      )}
      <label>
        Expires on (optional)
        <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
      </label>
      <fieldset className="scope-list">
        <legend>Permissions</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="inline">
            <input type="checkbox" checked={scopes.has(scope)} onChange={() => toggle(scope)} /> {scope}
          </label>
        ))}
      </fieldset>
      <div className="buttons">
        <button type="submit" disabled={action.busy || scopes.size === 0}>
          Create
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {action.error && <ErrorMessage message={action.error} />}
    </form>
  );
}
