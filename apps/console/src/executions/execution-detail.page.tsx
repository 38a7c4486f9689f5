import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isFinal } from '@platform-sdk/client';
import { ErrorMessage, Json, Loading, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync } from '../shell/use-async';
import { duration } from './duration';
import { ExecutionLogs } from './execution-logs';

/** While a run is not finished it is read again every this many ms. */
const POLL_MS = 1000;

export function ExecutionDetailPage() {
  const { id = '' } = useParams();
  const client = useClient();
  const navigate = useNavigate();
  const execution = useAsync(() => client.executions.get(id), id);
  const action = useAction();
  const value = execution.value;
  const running = value !== undefined && !isFinal(value.status);

  useEffect(() => {
    if (!running || execution.loading) return;
    const timer = setTimeout(execution.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, execution.loading, execution.reload, value]);

  if (!value && execution.loading) return <Loading />;
  if (!value) return <ErrorMessage message={execution.error ?? 'Not found'} retry={execution.reload} />;

  return (
    <section aria-labelledby="execution-title">
      <div className="title-row">
        <h1 id="execution-title">Execution {value.id.slice(0, 8)}</h1>
        <span className={`status status-${value.status}`} data-testid="execution-status">
          {value.status}
        </span>
        {running && (
          <span className="muted" role="status">
            live
          </span>
        )}
      </div>
      <dl className="facts">
        <dt>Workflow</dt>
        <dd>
          <Link to={`/workflows/${value.workflow_id}`}>
            {value.workflow_id} (version {value.workflow_version})
          </Link>
        </dd>
        <dt>Trigger</dt>
        <dd>{value.trigger.type}</dd>
        <dt>Started</dt>
        <dd>
          <When at={value.started_at} />
        </dd>
        <dt>Duration</dt>
        <dd>{duration(value.started_at, value.finished_at)}</dd>
      </dl>
      <div className="buttons">
        {running && (
          <button
            type="button"
            className="danger"
            disabled={action.busy}
            onClick={() => action.run(() => client.executions.cancel(value.id).then(execution.reload))}
          >
            Cancel run
          </button>
        )}
        {!running && (
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              // A retry is a new run of the same workflow with the same input.
              action.run(async () => navigate(`/executions/${(await client.runs.start(value.workflow_id, value.input)).run_id}`))
            }
          >
            Retry with same input
          </button>
        )}
      </div>
      {action.error && <ErrorMessage message={action.error} />}
      {execution.error && <ErrorMessage message={`Refresh failed: ${execution.error}`} />}
      {value.error && (
        <div className="error" role="alert">
          <strong>{value.error.code}</strong>: {value.error.message}
          {value.error.step_id && ` (step ${value.error.step_id})`}
        </div>
      )}
      <h2>Steps</h2>
      {value.steps.length === 0 ? (
        <p className="empty">No step has started yet.</p>
      ) : (
        <ol className="timeline">
          {value.steps.map((step) => (
            <li key={`${step.path}:${step.attempt}`} className="step">
              <h3>
                {step.id} <span className="muted">({step.type})</span> <span className={`status status-${step.status}`}>{step.status}</span>
              </h3>
              <p className="muted">
                attempt {step.attempt} · <When at={step.started_at} /> · {duration(step.started_at, step.finished_at)}
              </p>
              {step.error && (
                <p className="error">
                  {step.error.code}: {step.error.message}
                </p>
              )}
              {step.output !== null && <Json value={step.output} label={`Output of ${step.id}`} />}
            </li>
          ))}
        </ol>
      )}
      <ExecutionLogs id={value.id} status={value.status} />
      <h2>Input</h2>
      <Json value={value.input} label="Run input" />
      {value.output !== null && (
        <>
          <h2>Output</h2>
          <Json value={value.output} label="Run output" />
        </>
      )}
    </section>
  );
}
