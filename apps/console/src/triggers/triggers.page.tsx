import { useState } from 'react';
import { Link } from 'react-router';
import type { Trigger } from '@platform-sdk/client';
import { ErrorMessage, ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';
import { CreateTriggerForm } from './create-trigger.form';
import { upcomingFires } from './next-fires';

export function TriggersPage() {
  const client = useClient();
  const triggers = usePaged((cursor) => onePage(client.triggers.list({}, { pageSize: PAGE_SIZE, cursor })), 'triggers');
  const [creating, setCreating] = useState(false);
  return (
    <section aria-labelledby="triggers-title">
      <div className="title-row">
        <h1 id="triggers-title">Triggers</h1>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          Create trigger
        </button>
      </div>
      {creating && (
        <CreateTriggerForm
          onCreated={() => {
            setCreating(false);
            triggers.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <ListState state={triggers} empty="No triggers yet.">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">When</th>
              <th scope="col">Workflow</th>
              <th scope="col">Status</th>
              <th scope="col">Next fires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {triggers.items.map((trigger) => (
              <TriggerRow key={trigger.id} trigger={trigger} />
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}

function when(trigger: Trigger): string {
  if (trigger.schedule) return trigger.schedule.cron ?? `every ${trigger.schedule.interval_seconds} s`;
  if (trigger.event) return trigger.event.filter ? `${trigger.event.type} where ${trigger.event.filter}` : trigger.event.type;
  return trigger.webhook_id ? `webhook ${trigger.webhook_id.slice(0, 8)}` : '—';
}

function NextFires({ trigger }: { trigger: Trigger }) {
  const times = upcomingFires(trigger);
  if (times.length === 0)
    return <span className="muted">{trigger.type === 'schedule' ? '—' : 'on each ' + (trigger.type === 'event' ? 'event' : 'delivery')}</span>;
  return (
    <ol className="fires" aria-label={`Next fire times of ${trigger.name}`}>
      {times.map((at) => (
        <li key={at}>
          <When at={at} />
        </li>
      ))}
    </ol>
  );
}

/** One trigger; enabling or disabling updates the row from the API's answer. */
function TriggerRow({ trigger: initial }: { trigger: Trigger }) {
  const client = useClient();
  const [trigger, setTrigger] = useState(initial);
  const action = useAction();
  const enabled = trigger.status === 'enabled';
  const toggle = () => action.run(async () => setTrigger(await (enabled ? client.triggers.disable(trigger.id) : client.triggers.enable(trigger.id))));
  return (
    <tr>
      <th scope="row">{trigger.name}</th>
      <td>{trigger.type}</td>
      <td>{when(trigger)}</td>
      <td>
        <Link to={`/workflows/${trigger.workflow_id}`}>{trigger.workflow_id.slice(0, 8)}</Link>
      </td>
      <td>
        <span className={`status status-${trigger.status}`} data-testid={`trigger-status-${trigger.name}`}>
          {trigger.status}
        </span>
      </td>
      <td>
        <NextFires trigger={trigger} />
      </td>
      <td>
        <button type="button" className="secondary" disabled={action.busy} onClick={toggle} aria-label={`${enabled ? 'Disable' : 'Enable'} ${trigger.name}`}>
          {enabled ? 'Disable' : 'Enable'}
        </button>
        {action.error && <ErrorMessage message={action.error} />}
      </td>
    </tr>
  );
}
