/** What a caught value says, for a log line or a recorded failure: its `message`, else the value as text. */
export function errorMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}
