import type { Workflow } from '@platform-sdk/client';
import { ErrorMessage } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAsync } from '../shell/use-async';

/** The tenant's workflows (the first 200), for the forms that point at one. */
export function useWorkflowChoices() {
  const client = useClient();
  return useAsync(() => client.workflows.list({}, { pageSize: 200 }).toArray(200), 'workflow-choices');
}

/** A labelled select of the tenant's workflows; an empty value means the first one. */
export function WorkflowSelect({
  id,
  value,
  onChange,
  choices,
}: {
  id: string;
  value: string;
  onChange: (id: string) => void;
  choices: ReturnType<typeof useWorkflowChoices>;
}) {
  const workflows: Workflow[] | undefined = choices.value;
  return (
    <>
      <label htmlFor={id}>Workflow</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} required disabled={!workflows}>
        {choices.loading && <option>Loading…</option>}
        {workflows?.length === 0 && <option value="">No workflows</option>}
        {workflows?.map((wf) => (
          <option key={wf.id} value={wf.id}>
            {wf.name}
          </option>
        ))}
      </select>
      {choices.error && <ErrorMessage message={choices.error} retry={choices.reload} />}
    </>
  );
}
