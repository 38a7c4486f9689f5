import { useState, type FormEvent } from 'react';
import type { CreateTriggerRequest } from '@platform-sdk/client';
import { ErrorMessage } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync } from '../shell/use-async';

/** A schedule trigger (cron or interval) for one of the tenant's workflows; created disabled unless ticked. */
export function CreateTriggerForm({ onCreated, onCancel }: { onCreated: () => void; onCancel: () => void }) {
  const client = useClient();
  const workflows = useAsync(() => client.workflows.list({}, { pageSize: 200 }).toArray(200), 'trigger-workflows');
  const [name, setName] = useState('');
  const [workflowId, setWorkflowId] = useState('');
  const [every, setEvery] = useState<'interval' | 'cron'>('interval');
  const [interval, setIntervalSeconds] = useState('3600');
  const [cron, setCron] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState('UTC');
  const [enabled, setEnabled] = useState(false);
  const action = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateTriggerRequest = {
      name,
      type: 'schedule',
      workflow_id: workflowId || workflows.value?.[0]?.id || '',
      enabled,
      schedule: { timezone, misfire: 'skip', ...(every === 'cron' ? { cron } : { interval_seconds: Number(interval) }) },
    };
    action.run(async () => {
      await client.triggers.create(body);
      onCreated();
    });
  };

  return (
    <form className="panel" onSubmit={submit} aria-label="Create trigger">
      <h2>New schedule trigger</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label htmlFor="trigger-workflow">Workflow</label>
      <select id="trigger-workflow" value={workflowId} onChange={(e) => setWorkflowId(e.target.value)} required disabled={!workflows.value}>
        {workflows.loading && <option>Loading…</option>}
        {workflows.value?.length === 0 && <option value="">No workflows</option>}
        {workflows.value?.map((wf) => (
          <option key={wf.id} value={wf.id}>
            {wf.name}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>Fires</legend>
        <label className="inline">
          <input type="radio" name="every" checked={every === 'interval'} onChange={() => setEvery('interval')} /> Every N seconds
        </label>
        <label className="inline">
          <input type="radio" name="every" checked={every === 'cron'} onChange={() => setEvery('cron')} /> On a cron schedule
        </label>
      </fieldset>
      {every === 'interval' ? (
        <label>
          Interval (seconds)
          <input type="number" min={1} value={interval} onChange={(e) => setIntervalSeconds(e.target.value)} required />
        </label>
      ) : (
        <label>
          Cron expression
          <input value={cron} onChange={(e) => setCron(e.target.value)} required />
        </label>
      )}
      <label>
        Time zone
        <input value={timezone} onChange={(e) => setTimezone(e.target.value)} required />
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
      {workflows.error && <ErrorMessage message={workflows.error} />}
      {action.error && <ErrorMessage message={action.error} />}
    </form>
  );
}
