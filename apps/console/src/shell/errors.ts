import { PlatformApiError } from '@platform-sdk/client';

/** One line for a failed call: the API's message and code, or what went wrong on the way. */
export function describeError(error: unknown): string {
  if (error instanceof PlatformApiError) {
    const details = error.details?.map((d) => `${d.field}: ${d.message}`).join('; ');
    return `${error.message} (${error.status}${error.code ? ` ${error.code}` : ''})${details ? ` — ${details}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
