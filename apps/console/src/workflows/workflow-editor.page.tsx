import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { ValidationResult, Workflow } from '@platform-sdk/client';
import { ErrorMessage, Loading } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAction, useAsync } from '../shell/use-async';
import { addStep, findStep, moveStep, parseText, removeStep, STEP_TYPES, toText, type Definition } from './definition';
import { JsonEditor } from './json-editor';
import { StepGraph } from './step-graph';
import { useDefinitionSchema } from './use-definition-schema';
import { StepPanel } from './step-panel';
import { RunPanel } from './run-panel';

const BLANK: Definition = { name: 'New workflow', steps: [{ id: 'start', type: 'transform', input: { value: '{% input %}' } }] };

function definitionOf(workflow: Workflow): Definition {
  return {
    name: workflow.name,
    description: workflow.description,
    steps: workflow.steps,
    input_schema: workflow.input_schema,
    settings: workflow.settings,
  };
}

export function WorkflowEditorPage() {
  const { id } = useParams();
  const client = useClient();
  const loaded = useAsync(() => (id ? client.workflows.get(id) : Promise.resolve(undefined)), id ?? 'new');
  if (loaded.loading) return <Loading />;
  if (loaded.error) return <ErrorMessage message={loaded.error} retry={loaded.reload} />;
  return <Editor key={id ?? 'new'} workflow={loaded.value} />;
}

function Editor({ workflow }: { workflow: Workflow | undefined }) {
  const client = useClient();
  const navigate = useNavigate();
  // A new workflow's first save moves to its own address; the message comes along.
  const arrived = (useLocation().state as { saved?: string } | null)?.saved ?? null;
  const [definition, setDefinition] = useState<Definition>(() => (workflow ? definitionOf(workflow) : BLANK));
  const [text, setText] = useState(() => toText(definition));
  const [textError, setTextError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [newType, setNewType] = useState<string>('approval');
  const [validation, setValidation] = useState<ValidationResult | null>(null);
  const [saved, setSaved] = useState<string | null>(arrived);
  const save = useAction();
  const schema = useDefinitionSchema();

  /** A change made on the graph side: the text follows. */
  const edit = (next: Definition) => {
    setDefinition(next);
    setText(toText(next));
    setTextError(null);
    setValidation(null);
  };
  /** A change made on the text side: the graph follows when the text reads as a definition. */
  const editText = (next: string) => {
    setText(next);
    setValidation(null);
    const parsed = parseText(next);
    if (parsed.ok) {
      setDefinition(parsed.definition);
      setTextError(null);
    } else setTextError(parsed.error);
  };

  const step = useMemo(() => (selected ? findStep(definition, selected) : undefined), [definition, selected]);

  const validateThenSave = () =>
    save.run(async () => {
      setSaved(null);
      const { name: _name, description: _description, ...checked } = definition;
      const result = await client.workflows.validate(checked);
      setValidation(result);
      if (!result.valid) return;
      const stored = workflow ? await client.workflows.replace(workflow.id, definition) : await client.workflows.create(definition);
      const message = `Saved version ${stored.version}`;
      if (workflow) setSaved(message);
      else await navigate(`/workflows/${stored.id}`, { replace: true, state: { saved: message } });
    });

  return (
    <section aria-labelledby="editor-title" className="editor">
      <div className="title-row">
        <h1 id="editor-title">{workflow ? `Workflow: ${workflow.name}` : 'New workflow'}</h1>
        {workflow && (
          <span className="muted">
            version {workflow.version}
            {' · '}
            <Link to={`/workflows/${workflow.id}/versions`}>Versions</Link>
          </span>
        )}
      </div>
      <div className="toolbar" role="toolbar" aria-label="Steps">
        <label>
          New step type
          <select value={newType} onChange={(e) => setNewType(e.target.value)}>
            {STEP_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => {
            const added = addStep(definition, newType, selected ?? undefined);
            edit(added.definition);
            setSelected(added.id);
          }}
        >
          Add step
        </button>
        <button type="button" className="secondary" disabled={!step} onClick={() => step && edit(moveStep(definition, step.id, -1))}>
          Move up
        </button>
        <button type="button" className="secondary" disabled={!step} onClick={() => step && edit(moveStep(definition, step.id, 1))}>
          Move down
        </button>
        <button
          type="button"
          className="danger"
          disabled={!step}
          onClick={() => {
            if (!step) return;
            edit(removeStep(definition, step.id));
            setSelected(null);
          }}
        >
          Remove step
        </button>
        <span className="spacer" />
        <button type="button" onClick={validateThenSave} disabled={save.busy || textError !== null}>
          {save.busy ? 'Saving…' : 'Validate and save'}
        </button>
      </div>
      {save.error && <ErrorMessage message={save.error} />}
      {saved && (
        <p role="status" className="ok">
          {saved}
        </p>
      )}
      {validation && !validation.valid && (
        <div role="alert" className="error">
          <p>The definition has problems:</p>
          <ul>
            {validation.problems.map((p, i) => (
              <li key={i}>
                <code>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="editor-panes">
        <StepGraph steps={definition.steps} selected={selected} onSelect={setSelected} />
        <div className="json-pane">
          <span className="label" id="definition-json-label">
            Definition (JSON){schema ? ', checked against its schema as you type' : ''}
          </span>
          <JsonEditor id="definition-json" label="Definition (JSON)" value={text} onChange={editText} schema={schema} />
          {textError && (
            <p id="definition-error" className="error" role="alert">
              {textError}
            </p>
          )}
        </div>
      </div>
      {step && <StepPanel key={step.id} step={step} definition={definition} schema={schema} onChange={edit} onRenamed={setSelected} />}
      {workflow && <RunPanel workflowId={workflow.id} />}
    </section>
  );
}
