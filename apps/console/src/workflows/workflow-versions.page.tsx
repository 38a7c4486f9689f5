import { Link, useParams, useSearchParams } from 'react-router';
import type { Workflow } from '@platform-sdk/client';
import { ErrorMessage, Loading, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAsync } from '../shell/use-async';
import { lineDiff } from './version-diff';

/**
 * What a version holds, and so what the diff compares: its input schema, steps and settings. The API
 * answers a past version (`?version=`) with the workflow's current name, description, status and
 * `updated_at`, so those are not compared.
 */
function definitionOf(w: Workflow) {
  return { input_schema: w.input_schema, steps: w.steps, settings: w.settings };
}

/**
 * A workflow's versions (1 to the current one) and the line diff of two of them, chosen in the
 * address: `/workflows/<id>/versions?from=2&to=3` (default: the one before the current, and the current).
 */
export function WorkflowVersionsPage() {
  const { id = '' } = useParams();
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const current = useAsync(() => client.workflows.get(id), id);
  const latest = current.value?.version ?? 1;
  const pick = (name: string, fallback: number) => {
    const n = Number(params.get(name));
    return Number.isInteger(n) && n >= 1 && n <= latest ? n : fallback;
  };
  const to = pick('to', latest);
  const from = pick('from', Math.max(1, to - 1));
  const pair = useAsync(
    () => (current.value ? Promise.all([client.workflows.get(id, { version: from }), client.workflows.get(id, { version: to })]) : Promise.resolve(undefined)),
    `versions:${id}:${from}:${to}:${current.value ? 'ready' : ''}`,
  );

  if (!current.value && current.loading) return <Loading />;
  if (!current.value) return <ErrorMessage message={current.error ?? 'Not found'} retry={current.reload} />;
  const versions = Array.from({ length: latest }, (_, i) => latest - i);
  const choose = (name: 'from' | 'to', value: string) => {
    const next = new URLSearchParams(params);
    next.set('from', String(from));
    next.set('to', String(to));
    next.set(name, value);
    setParams(next);
  };
  const diff = pair.value ? lineDiff(definitionOf(pair.value[0]), definitionOf(pair.value[1])) : undefined;
  const changed = diff?.filter((l) => l.kind !== 'same').length ?? 0;

  return (
    <section aria-labelledby="versions-title">
      <p>
        <Link to={`/workflows/${id}`}>Back to the editor</Link>
      </p>
      <h1 id="versions-title">Versions of {current.value.name}</h1>
      <p className="muted">
        {latest} version{latest === 1 ? '' : 's'}; the workflow last changed <When at={current.value.updated_at} />.
      </p>
      <div className="filters">
        <label>
          Compare version
          <select value={from} onChange={(e) => choose('from', e.target.value)}>
            {versions.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
        <label>
          with version
          <select value={to} onChange={(e) => choose('to', e.target.value)}>
            {versions.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
      </div>
      {pair.error && <ErrorMessage message={pair.error} retry={pair.reload} />}
      {pair.loading && <Loading />}
      {!pair.loading && diff && pair.value && (
        <>
          <p role="status">
            Version {from} → version {to} (input schema, steps and settings):{' '}
            {changed === 0 ? 'no difference' : `${changed} line${changed === 1 ? '' : 's'} changed`}.
          </p>
          <pre className="diff" aria-label={`Differences between version ${from} and version ${to}`} tabIndex={0}>
            {diff.map((line, i) => (
              <span key={i} className={`diff-${line.kind}`}>
                {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
                {line.text}
                {'\n'}
              </span>
            ))}
          </pre>
        </>
      )}
    </section>
  );
}
