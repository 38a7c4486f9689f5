import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { components } from '@platform-sdk/client';
import { initialValues, problemsOf, type ObjectSchema } from '../forms/schema-fields';
import { SchemaFields } from '../forms/schema-form';
import { ok } from '../shell/api';
import { ErrorMessage, Json, ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync, type AsyncState } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';

type Task = components['schemas']['TaskResponseDto'];
type Decision = Task['decisions'][number];

/** A member of the tenant's teams (`GET /account/team/members`). */
interface Member {
  user_id: string;
  email: string;
  name: string | null;
  team_id: string;
  team_name: string;
}

/** Pending tasks of the tenant, oldest first (`GET /tasks`); `?assignee=me` keeps the signed-in user's. */
export function TasksPage() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const mine = params.get('assignee') === 'me';
  const tasks = usePaged(
    (cursor) => onePage(client.list<Task>('/tasks', { status: 'pending', ...(mine ? { assignee: 'me' } : {}) }, { pageSize: PAGE_SIZE, cursor })),
    `tasks:${mine}`,
  );
  // The people a task can be given to: read once for every card (a key without account:read gets none).
  const members = useAsync(() => client.list<Member>('/account/team/members', {}, { pageSize: 200 }).toArray(200), 'members');
  return (
    <section aria-labelledby="tasks-title">
      <div className="title-row">
        <h1 id="tasks-title">Tasks inbox</h1>
        <label className="inline">
          <input type="checkbox" checked={mine} onChange={(e) => setParams(e.target.checked ? { assignee: 'me' } : {})} /> Assigned to me only
        </label>
        <button type="button" className="secondary" onClick={tasks.reload}>
          Refresh
        </button>
      </div>
      <ListState state={tasks} empty="Nothing waits for a decision.">
        <ul className="cards">
          {tasks.items.map((task) => (
            <TaskCard key={task.id} task={task} members={members} onDone={tasks.reload} />
          ))}
        </ul>
      </ListState>
    </section>
  );
}

function assigneeOf(task: Task, members: Member[] | undefined): string {
  const a = task.assignee;
  if (!a) return 'unassigned';
  if (a.user_id) {
    const m = members?.find((x) => x.user_id === a.user_id);
    return m ? (m.name ?? m.email) : `user ${a.user_id.slice(0, 8)}`;
  }
  if (a.team_id) return `team ${members?.find((x) => x.team_id === a.team_id)?.team_name ?? a.team_id.slice(0, 8)}`;
  return `customer ${a.customer_id?.slice(0, 8) ?? ''}`;
}

function TaskCard({ task, members, onDone }: { task: Task; members: AsyncState<Member[]>; onDone: () => void }) {
  const client = useClient();
  const [comment, setComment] = useState('');
  const schema = task.form as ObjectSchema | null;
  const [values, setValues] = useState<Record<string, unknown>>(() => initialValues(schema));
  const [showProblems, setShowProblems] = useState(false);
  const action = useAction();
  const commentId = `comment-${task.id}`;
  const problems = schema ? problemsOf(schema, values) : {};

  const decide = (decision: Decision) => {
    // A form's data is checked here first (the API checks it again against the same schema); a rejection needs none.
    if (decision === 'submit' && Object.keys(problems).length > 0) {
      setShowProblems(true);
      return;
    }
    const data = decision === 'submit' ? values : comment ? { comment } : undefined;
    action.run(async () => {
      await ok(client.api.POST('/tasks/{id}/complete', { params: { path: { id: task.id } }, body: { decision, ...(data ? { data } : {}) } }));
      onDone();
    });
  };

  return (
    <li className="card" aria-labelledby={`task-${task.id}`}>
      <h2 id={`task-${task.id}`}>{task.title}</h2>
      <p className="muted">
        {task.type} · {task.workflow_name}
        {task.execution_id && (
          <>
            {' · '}
            <Link to={`/executions/${task.execution_id}`}>execution {task.execution_id.slice(0, 8)}</Link>
          </>
        )}
        {' · due '}
        <When at={task.due_at} />
        {' · '}
        <span data-testid={`assignee-${task.id}`}>{assigneeOf(task, members.value)}</span>
      </p>
      {task.description && <p>{task.description}</p>}
      {task.context && <Json value={task.context} label={`Context of ${task.title}`} />}
      {schema && (
        <fieldset>
          <legend>Form</legend>
          <SchemaFields schema={schema} values={values} onChange={setValues} problems={showProblems ? problems : {}} />
        </fieldset>
      )}
      {task.decisions.includes('reject') && (
        <>
          <label htmlFor={commentId}>Comment</label>
          <textarea id={commentId} value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
        </>
      )}
      <div className="buttons">
        {task.decisions.includes('approve') && (
          <button type="button" disabled={action.busy} onClick={() => decide('approve')}>
            Approve
          </button>
        )}
        {task.decisions.includes('submit') && (
          <button type="button" disabled={action.busy} onClick={() => decide('submit')}>
            Submit
          </button>
        )}
        {task.decisions.includes('reject') && (
          <button type="button" className="danger" disabled={action.busy} onClick={() => decide('reject')}>
            Reject
          </button>
        )}
      </div>
      <AssignTask task={task} members={members} onAssigned={onDone} />
      {action.error && <ErrorMessage message={action.error} />}
    </li>
  );
}

/** Gives the task to a member of the tenant, or to one of its teams (`POST /tasks/{id}/assign`). */
function AssignTask({ task, members, onAssigned }: { task: Task; members: AsyncState<Member[]>; onAssigned: () => void }) {
  const client = useClient();
  const [to, setTo] = useState('');
  const action = useAction();
  const id = `assign-${task.id}`;
  const teams = [...new Map((members.value ?? []).map((m) => [m.team_id, m.team_name])).entries()];
  const assign = () =>
    action.run(async () => {
      const [kind, target] = to.split(':') as ['user' | 'team', string];
      await ok(client.api.POST('/tasks/{id}/assign', { params: { path: { id: task.id } }, body: kind === 'team' ? { team_id: target } : { user_id: target } }));
      onAssigned();
    });
  if (members.error) return <p className="muted">Assigning needs a key that can read the team (account:read).</p>;
  return (
    <div className="buttons">
      <label htmlFor={id}>Assign to</label>
      <select id={id} value={to} onChange={(e) => setTo(e.target.value)} disabled={!members.value}>
        <option value="">{members.loading ? 'Loading…' : 'Choose a person or team'}</option>
        <optgroup label="People">
          {members.value?.map((m) => (
            <option key={`${m.user_id}:${m.team_id}`} value={`user:${m.user_id}`}>
              {m.name ?? m.email}
            </option>
          ))}
        </optgroup>
        <optgroup label="Teams">
          {teams.map(([teamId, name]) => (
            <option key={teamId} value={`team:${teamId}`}>
              {name}
            </option>
          ))}
        </optgroup>
      </select>
      <button type="button" className="secondary" disabled={!to || action.busy} onClick={assign}>
        Assign
      </button>
      {action.error && <ErrorMessage message={action.error} />}
    </div>
  );
}
