import { useId, type ReactNode } from 'react';

/** What a labelled input needs to name its hint and the API's problem with it. */
export interface FieldProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * One labelled form field with an optional hint and the API's problem with it beside it
 * (`aria-invalid`, described by both): the pattern of the generated forms, for hand-written ones.
 */
export function Field({ label, hint, problem, children }: { label: string; hint?: string; problem?: string; children: (props: FieldProps) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {problem && (
        <p className="field-problem" id={problemId}>
          {problem}
        </p>
      )}
    </div>
  );
}
