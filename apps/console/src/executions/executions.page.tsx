import { Link, useSearchParams } from 'react-router';
import type { ExecutionFilters, ExecutionStatus } from '@platform-sdk/client';
import { ListState, When } from '../shell/list-state';
import { fromLocalInput, isoParam, toLocalInput } from '../shell/local-time';
import { useClient } from '../shell/session-context';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';
import { duration } from './duration';

const STATUSES: ExecutionStatus[] = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'timed_out'];
type TriggerType = NonNullable<ExecutionFilters['trigger_type']>;
const TRIGGER_TYPES: TriggerType[] = ['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'];

/**
 * Filters live in the address (`?status=failed&workflow_id=…&trigger_type=webhook&created_after=<ISO>&created_before=<ISO>`):
 * a filtered list is a link to share.
 */
export function ExecutionsPage() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const filters: ExecutionFilters = {};
  const status = params.get('status');
  if (status && (STATUSES as string[]).includes(status)) filters.status = status as ExecutionStatus;
  const workflowId = params.get('workflow_id');
  if (workflowId) filters.workflow_id = workflowId;
  const triggerType = params.get('trigger_type');
  if (triggerType && (TRIGGER_TYPES as string[]).includes(triggerType)) filters.trigger_type = triggerType as TriggerType;
  for (const bound of ['created_after', 'created_before'] as const) {
    const at = isoParam(params.get(bound));
    if (at) filters[bound] = at;
  }
  const executions = usePaged((cursor) => onePage(client.executions.list(filters, { pageSize: PAGE_SIZE, cursor })), `executions:${params.toString()}`);

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };

  return (
    <section aria-labelledby="executions-title">
      <h1 id="executions-title">Executions</h1>
      <div className="filters" role="search">
        <label>
          Status
          <select value={filters.status ?? ''} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Workflow id
          <input defaultValue={workflowId ?? ''} onBlur={(e) => setFilter('workflow_id', e.target.value.trim())} placeholder="any workflow" />
        </label>
        <label>
          Trigger
          <select value={filters.trigger_type ?? ''} onChange={(e) => setFilter('trigger_type', e.target.value)}>
            <option value="">Any</option>
            {TRIGGER_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Created from
          <input
            type="datetime-local"
            value={toLocalInput(filters.created_after)}
            onChange={(e) => setFilter('created_after', fromLocalInput(e.target.value))}
          />
        </label>
        <label>
          Created before
          <input
            type="datetime-local"
            value={toLocalInput(filters.created_before)}
            onChange={(e) => setFilter('created_before', fromLocalInput(e.target.value))}
          />
        </label>
        <button type="button" className="secondary" onClick={executions.reload}>
          Refresh
        </button>
      </div>
      <ListState state={executions} empty="No executions match.">
        <table>
          <thead>
            <tr>
              <th scope="col">Execution</th>
              <th scope="col">Status</th>
              <th scope="col">Workflow</th>
              <th scope="col">Trigger</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {executions.items.map((ex) => (
              <tr key={ex.id}>
                <th scope="row">
                  <Link to={`/executions/${ex.id}`}>{ex.id.slice(0, 8)}</Link>
                </th>
                <td>
                  <span className={`status status-${ex.status}`}>{ex.status}</span>
                </td>
                <td>
                  <Link to={`/workflows/${ex.workflow_id}`}>
                    {ex.workflow_id.slice(0, 8)} v{ex.workflow_version}
                  </Link>
                </td>
                <td>{ex.trigger.type}</td>
                <td>
                  <When at={ex.started_at ?? ex.created_at} />
                </td>
                <td>{duration(ex.started_at, ex.finished_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}
