import { useState } from 'react';
import { Link } from 'react-router';
import type { components } from '@platform-sdk/client';
import { ErrorMessage, Json, ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction } from '../shell/use-async';
import { PAGE_SIZE, usePaged } from '../shell/use-paged';
import { onePage } from '../shell/use-paged';

type Task = components['schemas']['TaskResponseDto'];

/** Pending tasks of the tenant, oldest first (`GET /tasks`). */
export function TasksPage() {
  const client = useClient();
  const tasks = usePaged((cursor) => onePage(client.list<Task>('/tasks', { status: 'pending' }, { pageSize: PAGE_SIZE, cursor })), 'tasks');
  return (
    <section aria-labelledby="tasks-title">
      <div className="title-row">
        <h1 id="tasks-title">Tasks inbox</h1>
        <button type="button" className="secondary" onClick={tasks.reload}>
          Refresh
        </button>
      </div>
      <ListState state={tasks} empty="Nothing waits for a decision.">
        <ul className="cards">
          {tasks.items.map((task) => (
            <TaskCard key={task.id} task={task} onDone={tasks.reload} />
          ))}
        </ul>
      </ListState>
    </section>
  );
}

function TaskCard({ task, onDone }: { task: Task; onDone: () => void }) {
  const client = useClient();
  const [comment, setComment] = useState('');
  const action = useAction();
  const commentId = `comment-${task.id}`;
  const decide = (decision: 'approve' | 'reject') =>
    action.run(async () => {
      const { error } = await client.api.POST('/tasks/{id}/complete', {
        params: { path: { id: task.id } },
        body: { decision, ...(comment ? { data: { comment } } : {}) },
      });
      if (error) throw new Error(typeof error === 'object' && error && 'message' in error ? String(error.message) : 'The decision was refused');
      onDone();
    });
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
      </p>
      {task.description && <p>{task.description}</p>}
      {task.context && <Json value={task.context} label={`Context of ${task.title}`} />}
      <label htmlFor={commentId}>Comment</label>
      <textarea id={commentId} value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
      <div className="buttons">
        {task.decisions.includes('approve') && (
          <button type="button" disabled={action.busy} onClick={() => decide('approve')}>
            Approve
          </button>
        )}
        {task.decisions.includes('reject') && (
          <button type="button" className="danger" disabled={action.busy} onClick={() => decide('reject')}>
            Reject
          </button>
        )}
      </div>
      {action.error && <ErrorMessage message={action.error} />}
    </li>
  );
}
