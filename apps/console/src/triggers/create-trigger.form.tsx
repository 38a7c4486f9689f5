import { useState, type FormEvent } from 'react';
import type { CreateTriggerRequest } from '@platform-sdk/client';
import { ErrorMessage } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync } from '../shell/use-async';
import { useWorkflowChoices, WorkflowSelect } from '../workflows/workflow-select';

type TriggerType = CreateTriggerRequest['type'];
type EventType = NonNullable<CreateTriggerRequest['event']>['type'];

/** The platform events an event trigger can listen to (`EventDto.type`). */
export const EVENT_TYPES: EventType[] = [
  'run.execution.succeeded',
  'run.execution.failed',
  'run.execution.cancelled',
  'run.execution.timed_out',
  'run.execution.started',
  'storage.file.uploaded',
  'task.task.created',
  'task.task.assigned',
  'task.task.completed',
  'task.task.expired',
];

/**
 * A trigger for one of the tenant's workflows: a schedule (cron or interval), a platform event
 * (with an optional JSONata filter), or a webhook's accepted deliveries. Created disabled unless ticked.
 */
export function CreateTriggerForm({ onCreated, onCancel }: { onCreated: () => void; onCancel: () => void }) {
  const client = useClient();
  const workflows = useWorkflowChoices();
  const [type, setType] = useState<TriggerType>('schedule');
  const [name, setName] = useState('');
  const [workflowId, setWorkflowId] = useState('');
  const [every, setEvery] = useState<'interval' | 'cron'>('interval');
  const [interval, setIntervalSeconds] = useState('3600');
  const [cron, setCron] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState('UTC');
  const [eventType, setEventType] = useState<EventType>('run.execution.failed');
  const [filter, setFilter] = useState('');
  const [webhookId, setWebhookId] = useState('');
  const [enabled, setEnabled] = useState(false);
  const action = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateTriggerRequest = { name, type, workflow_id: workflowId || workflows.value?.[0]?.id || '', enabled };
    if (type === 'schedule') body.schedule = { timezone, misfire: 'skip', ...(every === 'cron' ? { cron } : { interval_seconds: Number(interval) }) };
    if (type === 'event') body.event = { type: eventType, ...(filter.trim() ? { filter: filter.trim() } : {}) };
    if (type === 'webhook') body.webhook_id = webhookId;
    action.run(async () => {
      await client.triggers.create(body);
      onCreated();
    });
  };

  return (
    <form className="panel" onSubmit={submit} aria-label="Create trigger">
      <h2>New trigger</h2>
      <fieldset>
        <legend>Kind</legend>
        {(['schedule', 'event', 'webhook'] as const).map((t) => (
          <label className="inline" key={t}>
            <input type="radio" name="trigger-type" checked={type === t} onChange={() => setType(t)} />{' '}
            {t === 'schedule' ? 'Schedule' : t === 'event' ? 'Platform event' : 'Webhook'}
          </label>
        ))}
      </fieldset>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <WorkflowSelect id="trigger-workflow" value={workflowId} onChange={setWorkflowId} choices={workflows} />
      {type === 'schedule' && (
        <>
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
        </>
      )}
      {type === 'event' && (
        <>
          <label>
            Event type
            <select value={eventType} onChange={(e) => setEventType(e.target.value as EventType)}>
              {EVENT_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Filter (JSONata, optional)
            <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder='e.g. workflow_name = "billing"' spellCheck={false} />
          </label>
        </>
      )}
      {type === 'webhook' && <WebhookSelect value={webhookId} onChange={setWebhookId} />}
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="buttons">
        <button type="submit" disabled={action.busy || !workflows.value?.length || (type === 'webhook' && !webhookId)}>
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

function WebhookSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const client = useClient();
  const webhooks = useAsync(() => client.webhooks.list({}, { pageSize: 200 }).toArray(200), 'trigger-webhooks');
  return (
    <>
      <label htmlFor="trigger-webhook">Webhook</label>
      <select id="trigger-webhook" value={value} onChange={(e) => onChange(e.target.value)} required disabled={!webhooks.value}>
        <option value="">{webhooks.loading ? 'Loading…' : webhooks.value?.length === 0 ? 'No webhooks: create one first' : 'Choose a webhook'}</option>
        {webhooks.value?.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      {webhooks.error && <ErrorMessage message={webhooks.error} retry={webhooks.reload} />}
    </>
  );
}
