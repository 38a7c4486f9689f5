import { useCallback, useState } from 'react';
import { PlatformApiError } from '@platform-sdk/client';
import { describeError } from './errors';

/** What the API refused in a form: a message per field (`details[].field`, e.g. `auth.token`), and the rest. */
export interface FormErrors {
  fields: Record<string, string>;
  /** The error as one line, for what no field on the form shows. */
  message: string;
}

/**
 * The API's answer split by field: `details` name the fields of a validation failure; a code in
 * `codeFields` names the field of an error without details (a 409 `duplicate_external_id`).
 */
export function formErrors(error: unknown, codeFields: Record<string, string> = {}): FormErrors {
  const fields: Record<string, string> = {};
  if (error instanceof PlatformApiError) {
    for (const detail of error.details ?? []) fields[detail.field] ??= detail.message;
    const field = codeFields[error.code];
    if (field && !fields[field]) fields[field] = error.message;
  }
  return { fields, message: describeError(error) };
}

/** The messages of fields under `prefix` (`settings.base_url` → `base_url`), for a generated form of that part. */
export function fieldsUnder(fields: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([field, message]) => (field.startsWith(`${prefix}.`) ? [[field.slice(prefix.length + 1), message]] : [])),
  );
}

/** A form's submission: busy while it runs, the API's refusal by field after. */
export function useFormAction(codeFields: Record<string, string> = {}): {
  busy: boolean;
  errors: FormErrors | null;
  run: (action: () => Promise<unknown>) => void;
} {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors | null>(null);
  const codes = JSON.stringify(codeFields);
  const run = useCallback(
    (action: () => Promise<unknown>) => {
      setBusy(true);
      setErrors(null);
      action().then(
        () => setBusy(false),
        (e: unknown) => {
          setErrors(formErrors(e, JSON.parse(codes) as Record<string, string>));
          setBusy(false);
        },
      );
    },
    [codes],
  );
  return { busy, errors, run };
}
