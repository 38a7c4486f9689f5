import { useState, type FormEvent } from 'react';
import type { components } from '@platform-sdk/client';
import { ok } from '../shell/api';
import { ErrorMessage, ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';

type Connection = components['schemas']['ConnectionResponseDto'];
type Connector = components['schemas']['ConnectorSummaryDto'];
type AuthType = components['schemas']['ConnectionAuthDto']['type'];

/** The tenant's connections to outside services (`GET /connections`): create one, test it. Credentials are never shown. */
export function ConnectionsPage() {
  const client = useClient();
  const connections = usePaged((cursor) => onePage(client.list<Connection>('/connections', {}, { pageSize: PAGE_SIZE, cursor })), 'connections');
  const [creating, setCreating] = useState(false);
  return (
    <section aria-labelledby="connections-title">
      <div className="title-row">
        <h1 id="connections-title">Connections</h1>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          Create connection
        </button>
      </div>
      {creating && (
        <CreateConnectionForm
          onCreated={() => {
            setCreating(false);
            connections.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <ListState state={connections} empty="No connections yet.">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Connector</th>
              <th scope="col">Auth</th>
              <th scope="col">Status</th>
              <th scope="col">Last test</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {connections.items.map((c) => (
              <ConnectionRow key={c.id} connection={c} />
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}

function ConnectionRow({ connection }: { connection: Connection }) {
  const client = useClient();
  const action = useAction();
  const [result, setResult] = useState<{ ok: boolean; message?: string; status?: number } | null>(null);
  const test = () => action.run(async () => setResult(await ok(client.api.POST('/connections/{id}/test', { params: { path: { id: connection.id } } }))));
  const last = result ?? (connection.last_test_ok === null ? null : { ok: connection.last_test_ok });
  return (
    <tr>
      <th scope="row">{connection.name}</th>
      <td>{connection.connector_id}</td>
      <td>{connection.auth.type}</td>
      <td>
        <span className={`status status-${connection.status === 'active' ? 'enabled' : 'disabled'}`}>{connection.status}</span>
        {connection.status_reason && <span className="muted"> {connection.status_reason}</span>}
      </td>
      <td>
        {last ? (
          <span role="status" data-testid={`test-${connection.name}`}>
            {last.ok ? 'passed' : `failed${last.status ? ` (${last.status})` : ''}${last.message ? `: ${last.message}` : ''}`}
          </span>
        ) : (
          <span className="muted">never tested</span>
        )}{' '}
        {!result && <When at={connection.last_tested_at} />}
      </td>
      <td className="actions">
        <button type="button" className="secondary" disabled={action.busy} onClick={test} aria-label={`Test ${connection.name}`}>
          {action.busy ? 'Testing…' : 'Test'}
        </button>
        {action.error && <ErrorMessage message={action.error} />}
      </td>
    </tr>
  );
}

/** A connection to a catalog connector, with one credential for the simple schemes (OAuth ones go through the API). */
function CreateConnectionForm({ onCreated, onCancel }: { onCreated: () => void; onCancel: () => void }) {
  const client = useClient();
  const connectors = useAsync(() => client.list<Connector>('/catalog/connectors', {}, { pageSize: 200 }).toArray(200), 'connectors');
  const [name, setName] = useState('');
  const [connectorId, setConnectorId] = useState('');
  const [authType, setAuthType] = useState<AuthType>('none');
  const [secret, setSecret] = useState('');
  const [username, setUsername] = useState('');
  const action = useAction();
  const connector = connectors.value?.find((c) => c.id === (connectorId || connectors.value?.[0]?.id));
  const authTypes = (connector?.auth_types ?? ['none']).filter((t): t is AuthType => ['none', 'api_key', 'bearer', 'basic'].includes(t));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const type = authTypes.includes(authType) ? authType : (authTypes[0] ?? 'none');
    const auth =
      type === 'api_key'
        ? { type, key: secret }
        : type === 'bearer'
          ? { type, token: secret }
          : type === 'basic'
            ? { type, username, password: secret }
            : { type };
    action.run(async () => {
      await ok(client.api.POST('/connections', { body: { name, connector_id: connector?.id ?? '', auth } }));
      onCreated();
    });
  };
  const type = authTypes.includes(authType) ? authType : (authTypes[0] ?? 'none');

  return (
    <form className="panel" onSubmit={submit} aria-label="Create connection">
      <h2>New connection</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Connector
        <select value={connector?.id ?? ''} onChange={(e) => setConnectorId(e.target.value)} disabled={!connectors.value} required>
          {connectors.loading && <option>Loading…</option>}
          {connectors.value?.length === 0 && <option value="">No connectors</option>}
          {connectors.value?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Authentication
        <select value={type} onChange={(e) => setAuthType(e.target.value as AuthType)}>
          {authTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      {type === 'basic' && (
        <label>
          User name
          <input value={username} onChange={(e) => setUsername(e.target.value)} required autoComplete="off" />
        </label>
      )}
      {type !== 'none' && (
        <label>
          {type === 'api_key' ? 'API key' : type === 'bearer' ? 'Token' : 'Password'}
          <input type="password" value={secret} onChange={(e) => setSecret(e.target.value)} required autoComplete="off" />
        </label>
      )}
      <div className="buttons">
        <button type="submit" disabled={action.busy || !connector}>
          Create
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {connectors.error && <ErrorMessage message={connectors.error} retry={connectors.reload} />}
      {action.error && <ErrorMessage message={action.error} />}
    </form>
  );
}
