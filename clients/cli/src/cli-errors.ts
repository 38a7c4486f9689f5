/** Exit codes: 0 done (a run succeeded), 1 failed (a run, a request, invalid files), 2 the command was used wrongly. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The command line is wrong or incomplete: exit 2, the message says what to do. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The command ran and failed; its message has been printed already when `reported`. */
export class CommandFailed extends Error {
  override readonly name = 'CommandFailed';
  constructor(
    message: string,
    readonly reported = false,
  ) {
    super(message);
  }
}
