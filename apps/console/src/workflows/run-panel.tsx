import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';

/** Runs the saved (current) version with an input, then opens the run. */
export function RunPanel({ workflowId }: { workflowId: string }) {
  const client = useClient();
  const navigate = useNavigate();
  const [input, setInput] = useState('{}');
  const action = useAction();
  const run = () =>
    action.run(async () => {
      const parsed = JSON.parse(input) as Record<string, unknown>;
      const accepted = await client.runs.start(workflowId, parsed);
      await navigate(`/executions/${accepted.run_id}`);
    });
  return (
    <form
      className="panel"
      aria-label="Run workflow"
      onSubmit={(e) => {
        e.preventDefault();
        run();
      }}
    >
      <h2>Run</h2>
      <label>
        Run input (JSON)
        <textarea value={input} onChange={(e) => setInput(e.target.value)} rows={3} spellCheck={false} />
      </label>
      <button type="submit" disabled={action.busy}>
        Run saved version
      </button>
      {action.error && <ErrorMessage message={action.error} />}
    </form>
  );
}
