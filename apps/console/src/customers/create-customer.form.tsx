import { useState, type FormEvent } from 'react';
import type { components } from '@platform-sdk/client';
import { ok } from '../shell/api';
import { Field } from '../shell/field';
import { useFormAction } from '../shell/form-errors';
import { ErrorMessage } from '../shell/list-state';
import { useClient } from '../shell/session-context';

type Customer = components['schemas']['CustomerResponseDto'];

/** A customer (an execution scope) through `POST /portal/customers`: name, your own id, metadata as a JSON object. */
export function CreateCustomerForm({ onCreated, onCancel }: { onCreated: (customer: Customer) => void; onCancel: () => void }) {
  const client = useClient();
  const [name, setName] = useState('');
  const [externalId, setExternalId] = useState('');
  const [metadata, setMetadata] = useState('');
  const [metadataProblem, setMetadataProblem] = useState<string>();
  // A taken external id is a 409 without details: shown at its field all the same.
  const action = useFormAction({ duplicate_external_id: 'external_id' });
  const problem = (field: string) => action.errors?.fields[field];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown> | undefined;
    if (metadata.trim()) {
      try {
        parsed = JSON.parse(metadata) as Record<string, unknown>;
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        setMetadataProblem('must be a JSON object, e.g. {"plan": "gold"}');
        return;
      }
    }
    setMetadataProblem(undefined);
    action.run(async () =>
      onCreated(
        await ok(
          client.api.POST('/portal/customers', {
            body: { name, ...(externalId.trim() ? { external_id: externalId.trim() } : {}), ...(parsed ? { metadata: parsed } : {}) },
          }),
        ),
      ),
    );
  };

  return (
    <form className="panel" onSubmit={submit} aria-label="Create customer">
      <h2>New customer</h2>
      <Field label="Name" problem={problem('name')}>
        {(props) => <input {...props} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />}
      </Field>
      <Field label="External id (optional)" hint="Your own identifier for this customer, unique in this environment." problem={problem('external_id')}>
        {(props) => <input {...props} value={externalId} onChange={(e) => setExternalId(e.target.value)} maxLength={200} spellCheck={false} />}
      </Field>
      <Field label="Metadata (optional JSON object)" problem={metadataProblem ?? problem('metadata')}>
        {(props) => (
          <textarea {...props} rows={3} value={metadata} onChange={(e) => setMetadata(e.target.value)} spellCheck={false} placeholder='{"plan": "gold"}' />
        )}
      </Field>
      <div className="buttons">
        <button type="submit" disabled={action.busy}>
          Create
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {action.errors && <ErrorMessage message={action.errors.message} />}
    </form>
  );
}
