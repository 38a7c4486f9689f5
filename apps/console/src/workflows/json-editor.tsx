import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, foldGutter, syntaxHighlighting, defaultHighlightStyle, syntaxTree } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { schemaProblems } from './definition-schema';
import { pointerRange } from './json-positions';

/** The page's stylesheet does not reach into the shadow root: the editor's own look is here. */
const THEME = EditorView.theme({
  '&': { minHeight: '420px', fontSize: '0.85em', backgroundColor: '#fff' },
  '&.cm-focused': { outline: '2px solid #1f4fbf' },
  '.cm-scroller': { fontFamily: 'ui-monospace, monospace' },
});

/** The definition's schema problems, each underlined where it is (parse errors are lang-json's). */
function schemaLinter(schema: Record<string, unknown>) {
  return linter((view): Diagnostic[] => {
    const text = view.state.doc.toString();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [];
    }
    const tree = syntaxTree(view.state);
    return schemaProblems(schema, value).map((p) => ({
      ...pointerRange(tree, text, p.pointer),
      severity: 'error',
      message: `${p.pointer || '/'}: ${p.message}`,
    }));
  });
}

/**
 * CodeMirror over the definition's JSON, checked as it is typed against the definition's JSON
 * Schema (from the API's own OpenAPI). Controlled like a textarea: `value` in, `onChange` out;
 * a new `value` from outside (an edit on the graph) replaces the text, not the undo history.
 */
export function JsonEditor({
  id,
  label,
  value,
  onChange,
  schema,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  schema: Record<string, unknown> | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  const schemaSlot = useRef(new Compartment());

  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    // In a shadow root: CodeMirror's styles then go into constructed style sheets, which the
    // console's CSP (no inline <style>) allows; on the document itself they would be <style> tags.
    const root = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          foldGutter(),
          history(),
          bracketMatching(),
          syntaxHighlighting(defaultHighlightStyle),
          THEME,
          json(),
          linter(jsonParseLinter()),
          lintGutter(),
          schemaSlot.current.of([]),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ id, 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is made once; value, schema and labels reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: schemaSlot.current.reconfigure(schema ? schemaLinter(schema) : []) });
  }, [schema]);

  return <div ref={host} className="json-editor" />;
}
