import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';

export function WorkflowsPage() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const name = params.get('name') ?? '';
  const [search, setSearch] = useState(name);
  const workflows = usePaged((cursor) => onePage(client.workflows.list(name ? { name } : {}, { pageSize: PAGE_SIZE, cursor })), `workflows:${name}`);

  return (
    <section aria-labelledby="workflows-title">
      <div className="title-row">
        <h1 id="workflows-title">Workflows</h1>
        <Link className="button" to="/workflows/new">
          New workflow
        </Link>
      </div>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setParams(search ? { name: search } : {});
        }}
      >
        <label>
          Name starts with
          <input value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      <ListState state={workflows} empty={name ? `No workflow's name starts with “${name}”.` : 'No workflows yet: create one.'}>
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col">Steps</th>
              <th scope="col">Updated</th>
              <th scope="col">Runs</th>
            </tr>
          </thead>
          <tbody>
            {workflows.items.map((wf) => (
              <tr key={wf.id}>
                <th scope="row">
                  <Link to={`/workflows/${wf.id}`}>{wf.name}</Link>
                </th>
                <td>{wf.version}</td>
                <td>{wf.status}</td>
                <td>{wf.steps.length}</td>
                <td>
                  <When at={wf.updated_at} />
                </td>
                <td>
                  <Link to={`/executions?workflow_id=${wf.id}`} aria-label={`Executions of ${wf.name}`}>
                    Executions
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}
