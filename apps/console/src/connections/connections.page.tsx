import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { components } from '@platform-sdk/client';
import { ok } from '../shell/api';
import { ErrorMessage, ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';
import { CreateConnectionForm } from './create-connection.form';
import { authorizeConnection } from './oauth-authorization';

type Connection = components['schemas']['ConnectionResponseDto'];

/**
 * The tenant's connections to outside services (`GET /connections`): create one, test it,
 * authorize an OAuth one at its provider. Credentials are never shown. The API's OAuth callback
 * sends the browser back here with `?connection_id=&status=authorized|failed`.
 */
export function ConnectionsPage() {
  const client = useClient();
  const [params] = useSearchParams();
  const connections = usePaged((cursor) => onePage(client.list<Connection>('/connections', {}, { pageSize: PAGE_SIZE, cursor })), 'connections');
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const returned = params.get('status');
  const shown =
    notice ??
    (returned === 'authorized'
      ? { ok: true, text: 'The connection is authorized.' }
      : returned === 'failed'
        ? { ok: false, text: 'The provider did not authorize the connection: try Authorize again.' }
        : null);
  return (
    <section aria-labelledby="connections-title">
      <div className="title-row">
        <h1 id="connections-title">Connections</h1>
        <button
          type="button"
          onClick={() => {
            setCreating(true);
            setNotice(null);
          }}
          disabled={creating}
        >
          Create connection
        </button>
      </div>
      {creating && (
        <CreateConnectionForm
          onCreated={(connection, authorizationError) => {
            setCreating(false);
            setNotice(
              authorizationError
                ? { ok: false, text: `Connection ${connection.name} created, but its authorization could not start: ${authorizationError}` }
                : { ok: true, text: `Connection ${connection.name} created.` },
            );
            connections.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      {shown && (
        <p role="status" className={shown.ok ? 'notice' : 'notice failed'}>
          {shown.text}
        </p>
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
  const authorize = () => action.run(() => authorizeConnection(client, connection.id));
  const needsAuthorization = connection.auth.type === 'oauth2_code' && connection.status !== 'active';
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
          {action.busy ? 'Working…' : 'Test'}
        </button>{' '}
        {needsAuthorization && (
          <button type="button" disabled={action.busy} onClick={authorize} aria-label={`Authorize ${connection.name}`}>
            Authorize
          </button>
        )}
        {action.error && <ErrorMessage message={action.error} />}
      </td>
    </tr>
  );
}
