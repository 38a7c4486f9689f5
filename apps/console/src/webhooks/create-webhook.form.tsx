import { useState, type FormEvent } from 'react';
import type { CreateWebhookRequest, Webhook } from '@platform-sdk/client';
import { ErrorMessage } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';
import { useWorkflowChoices, WorkflowSelect } from '../workflows/workflow-select';

type Verification = CreateWebhookRequest['verification']['type'];

/** A receiving address that runs a workflow; the answer carries its secret (hmac or token), this once. */
export function CreateWebhookForm({ onCreated, onCancel }: { onCreated: (webhook: Webhook) => void; onCancel: () => void }) {
  const client = useClient();
  const workflows = useWorkflowChoices();
  const [name, setName] = useState('');
  const [workflowId, setWorkflowId] = useState('');
  const [verification, setVerification] = useState<Verification>('hmac');
  const [header, setHeader] = useState('X-Webhook-Token');
  const [mode, setMode] = useState<'async' | 'sync'>('async');
  const [enabled, setEnabled] = useState(true);
  const action = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateWebhookRequest = {
      name,
      workflow_id: workflowId || workflows.value?.[0]?.id || '',
      verification: verification === 'token' ? { type: 'token', header } : { type: verification },
      response: { mode },
      enabled,
    };
    action.run(async () => onCreated(await client.webhooks.create(body)));
  };

  return (
    <form className="panel" onSubmit={submit} aria-label="Create webhook">
      <h2>New webhook</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <WorkflowSelect id="webhook-workflow" value={workflowId} onChange={setWorkflowId} choices={workflows} />
      <label>
        Verification
        <select value={verification} onChange={(e) => setVerification(e.target.value as Verification)}>
          <option value="hmac">HMAC signature (Standard Webhooks)</option>
          <option value="token">Token in a header</option>
          <option value="none">None (accept anything)</option>
        </select>
      </label>
      {verification === 'token' && (
        <label>
          Token header
          <input value={header} onChange={(e) => setHeader(e.target.value)} required />
        </label>
      )}
      <label>
        Answer the sender
        <select value={mode} onChange={(e) => setMode(e.target.value as 'async' | 'sync')}>
          <option value="async">At once (202)</option>
          <option value="sync">After the run (up to 10 s)</option>
        </select>
      </label>
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="buttons">
        <button type="submit" disabled={action.busy || !workflows.value?.length}>
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
