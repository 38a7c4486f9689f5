import { useState, type FormEvent } from 'react';
import type { components } from '@platform-sdk/client';
import type { ObjectSchema } from '../forms/schema-fields';
import { SchemaFields } from '../forms/schema-form';
import { ok } from '../shell/api';
import { describeError } from '../shell/errors';
import { Field } from '../shell/field';
import { fieldsUnder, useFormAction } from '../shell/form-errors';
import { ErrorMessage, Loading } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAsync } from '../shell/use-async';
import { authBody, EMPTY_AUTH, type AuthInput, type AuthType } from './auth-body';
import { authorizeConnection } from './oauth-authorization';

type Connection = components['schemas']['ConnectionResponseDto'];
type Connector = components['schemas']['ConnectorSummaryDto'];
type ConnectorDetail = components['schemas']['ConnectorResponseDto'];
type Scheme = components['schemas']['ConnectorAuthSchemeDto'];

const LABELS: Record<AuthType, string> = {
  none: 'None',
  api_key: 'API key',
  bearer: 'Bearer token',
  basic: 'User name and password',
  oauth2_code: 'OAuth 2.0 (sign in at the provider)',
  oauth2_client_credentials: 'OAuth 2.0 client credentials',
};

/**
 * A connection to a catalog connector (`POST /connections`): its settings in a form generated from
 * the connector's settings schema, one of its auth schemes with that scheme's fields. An OAuth 2.0
 * authorization-code connection is then authorized at the provider: the browser goes there and
 * comes back. The API's validation problems are shown at their fields.
 */
export function CreateConnectionForm({
  onCreated,
  onCancel,
}: {
  /** With `authorizationError` when an OAuth connection was made but its authorization could not start. */
  onCreated: (connection: Connection, authorizationError?: string) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const connectors = useAsync(() => client.list<Connector>('/catalog/connectors', {}, { pageSize: 200 }).toArray(200), 'connectors');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  const connectorId = chosen || connectors.value?.[0]?.id || '';
  const detail = useAsync(
    () => (connectorId ? ok(client.api.GET('/catalog/connectors/{id}', { params: { path: { id: connectorId } } })) : Promise.resolve(null)),
    `connector:${connectorId}`,
  );
  const [authType, setAuthType] = useState<AuthType>('none');
  const [auth, setAuth] = useState<AuthInput>(EMPTY_AUTH);
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const action = useFormAction();
  const problems = action.errors?.fields ?? {};

  const connector: ConnectorDetail | null | undefined = detail.value?.id === connectorId ? detail.value : undefined;
  const schemes: Scheme[] = connector?.auth ?? [];
  const scheme = schemes.find((s) => s.type === authType) ?? schemes[0];
  const type = scheme?.type ?? 'none';
  const settingsSchema = connector?.settings_schema as ObjectSchema | undefined;
  const set = (field: keyof AuthInput) => (value: string) => setAuth((before) => ({ ...before, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.run(async () => {
      const created = await ok(client.api.POST('/connections', { body: { name, connector_id: connectorId, auth: authBody(type, auth), settings } }));
      if (type !== 'oauth2_code') return onCreated(created);
      // Created, then authorized: a start that fails leaves a pending connection, to authorize from its row.
      await authorizeConnection(client, created.id).catch((e: unknown) => onCreated(created, describeError(e)));
    });
  };

  return (
    <form className="panel" onSubmit={submit} aria-label="Create connection">
      <h2>New connection</h2>
      <Field label="Name" problem={problems.name}>
        {(props) => <input {...props} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />}
      </Field>
      <Field label="Connector" problem={problems.connector_id}>
        {(props) => (
          <select
            {...props}
            value={connectorId}
            onChange={(e) => {
              setChosen(e.target.value);
              setSettings({});
            }}
            disabled={!connectors.value}
            required
          >
            {connectors.loading && <option value="">Loading…</option>}
            {connectors.value?.length === 0 && <option value="">No connectors</option>}
            {connectors.value?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {connectorId && connector === undefined && !detail.error && <Loading label="Reading the connector…" />}
      {detail.error && <ErrorMessage message={detail.error} retry={detail.reload} />}
      {connector && fieldsOfSettings(settingsSchema) && (
        <fieldset>
          <legend>Settings</legend>
          <SchemaFields schema={settingsSchema} values={settings} onChange={setSettings} problems={fieldsUnder(problems, 'settings')} />
        </fieldset>
      )}
      {connector && (
        <fieldset>
          <legend>Authentication</legend>
          <Field label="Scheme" problem={problems['auth.type']}>
            {(props) => (
              <select {...props} value={type} onChange={(e) => setAuthType(e.target.value as AuthType)}>
                {schemes.map((s) => (
                  <option key={s.type} value={s.type}>
                    {LABELS[s.type] ?? s.type}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <AuthFields type={type} scheme={scheme} input={auth} set={set} problems={problems} />
        </fieldset>
      )}
      <div className="buttons">
        <button type="submit" disabled={action.busy || !connector}>
          {type === 'oauth2_code' ? 'Create and authorize' : 'Create'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {connectors.error && <ErrorMessage message={connectors.error} retry={connectors.reload} />}
      {action.errors && <ErrorMessage message={action.errors.message} />}
    </form>
  );
}

function fieldsOfSettings(schema: ObjectSchema | undefined): boolean {
  return Object.keys(schema?.properties ?? {}).length > 0;
}

function AuthFields({
  type,
  scheme,
  input,
  set,
  problems,
}: {
  type: AuthType;
  scheme: Scheme | undefined;
  input: AuthInput;
  set: (field: keyof AuthInput) => (value: string) => void;
  problems: Record<string, string>;
}) {
  const text = (
    label: string,
    field: keyof AuthInput,
    apiField: string,
    options: { secret?: boolean; required?: boolean; hint?: string; placeholder?: string } = {},
  ) => (
    <Field label={label} hint={options.hint} problem={problems[`auth.${apiField}`]}>
      {(props) => (
        <input
          {...props}
          type={options.secret ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          value={input[field]}
          onChange={(e) => set(field)(e.target.value)}
          required={options.required}
          placeholder={options.placeholder}
        />
      )}
    </Field>
  );
  switch (type) {
    case 'none':
      return <p className="hint">The connector's calls carry no credential.</p>;
    case 'api_key':
      return text('API key', 'key', 'key', { secret: true, required: true });
    case 'bearer':
      return text('Token', 'token', 'token', { secret: true, required: true });
    case 'basic':
      return (
        <>
          {text('User name', 'username', 'username', { required: true })}
          {text('Password', 'password', 'password', { secret: true })}
        </>
      );
    case 'oauth2_code':
    case 'oauth2_client_credentials':
      return (
        <>
          {text('Client id', 'clientId', 'client_id', { required: true, hint: 'As registered with the provider.' })}
          {text('Client secret', 'clientSecret', 'client_secret', {
            secret: true,
            required: type === 'oauth2_client_credentials',
            hint: type === 'oauth2_code' ? 'Leave empty for a public client (PKCE is always used).' : undefined,
          })}
          {type === 'oauth2_code' &&
            text('Authorization URL', 'authorizationUrl', 'authorization_url', {
              placeholder: scheme?.authorization_url ?? 'https://…',
              hint: defaultHint(scheme?.authorization_url),
            })}
          {text('Token URL', 'tokenUrl', 'token_url', { placeholder: scheme?.token_url ?? 'https://…', hint: defaultHint(scheme?.token_url) })}
          {text('Scopes', 'scopes', 'scopes', { placeholder: scheme?.scopes?.join(' '), hint: 'Separated by spaces; empty: the connector’s.' })}
          {type === 'oauth2_code' && (
            <p className="hint">
              Register <code>{window.location.origin}/connections/oauth/callback</code> as the redirect URI with the provider. After{' '}
              <strong>Create and authorize</strong> you sign in there and come back here.
            </p>
          )}
        </>
      );
  }
}

function defaultHint(value: string | undefined): string {
  return value ? 'Empty: the connector’s (shown in the field).' : 'Required: this connector has none.';
}
