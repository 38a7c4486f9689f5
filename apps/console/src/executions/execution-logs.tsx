import { useState } from 'react';
import type { ExecutionStatus, LogFilters } from '@platform-sdk/client';
import { ListState } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { onePage, usePaged } from '../shell/use-paged';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
const LOG_PAGE = 100;

/**
 * The run's log lines, oldest first (`GET /run/executions/{id}/logs`), 100 a page, filtered by
 * level. Read again when the run's status changes, and on Refresh.
 */
export function ExecutionLogs({ id, status }: { id: string; status: ExecutionStatus }) {
  const client = useClient();
  const [level, setLevel] = useState<LogFilters['level'] | ''>('');
  const filters: LogFilters = level ? { level } : {};
  const logs = usePaged((cursor) => onePage(client.executions.logs(id, filters, { pageSize: LOG_PAGE, cursor })), `logs:${id}:${status}:${level}`);
  return (
    <section aria-labelledby="logs-title">
      <div className="title-row">
        <h2 id="logs-title">Logs</h2>
        <div className="filters">
          <label>
            Level
            <select value={level} onChange={(e) => setLevel(e.target.value as LogFilters['level'] | '')}>
              <option value="">Any</option>
              {LEVELS.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <button type="button" className="secondary" onClick={logs.reload}>
            Refresh logs
          </button>
        </div>
      </div>
      <ListState state={logs} empty="No log lines yet.">
        <ol className="logs" aria-label="Log lines" tabIndex={0}>
          {logs.items.map((line) => (
            <li key={line.id} className={`log log-${line.level}`}>
              <time dateTime={line.created_at}>{new Date(line.created_at).toLocaleTimeString()}</time> <span className="level">{line.level}</span>
              {line.step_id && <span className="muted"> [{line.step_id}]</span>} {line.message}
              {line.data && <code className="log-data"> {JSON.stringify(line.data)}</code>}
            </li>
          ))}
        </ol>
      </ListState>
    </section>
  );
}
