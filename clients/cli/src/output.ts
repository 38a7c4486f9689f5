/** Where a command writes: JSON for scripts (`--json`), tables and progress for people on a terminal. */
export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

const MAX_CELL = 60;

function cell(value: unknown): string {
  const text = value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value);
  const line = text.replace(/\s+/g, ' ');
  return line.length > MAX_CELL ? `${line.slice(0, MAX_CELL - 1)}…` : line;
}

export function table<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n');
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Output {
  private progressShown = false;
  private frame = 0;

  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Progress lines only for a person at a terminal, never in --json or a pipeline's log. */
  get interactive(): boolean {
    return !this.json && this.stderr.isTTY === true;
  }

  /** The result of the command, on stdout. */
  print(text: string): void {
    this.clearProgress();
    this.stdout.write(`${text}\n`);
  }

  printJson(value: unknown): void {
    this.print(JSON.stringify(value, null, 2));
  }

  /** `value` as JSON with --json, else the human `text`. */
  result(value: unknown, text: () => string): void {
    if (this.json) this.printJson(value);
    else this.print(text());
  }

  printTable<T>(rows: T[], columns: Column<T>[], empty = '(none)'): void {
    this.print(rows.length ? table(rows, columns) : empty);
  }

  /** Notes for people (what was done, where), on stderr so stdout stays the result. */
  note(text: string): void {
    this.clearProgress();
    if (!this.json) this.stderr.write(`${text}\n`);
  }

  /** Problems, on stderr, also with --json. */
  error(text: string): void {
    this.clearProgress();
    this.stderr.write(`${text}\n`);
  }

  progress(text: string): void {
    if (!this.interactive) return;
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stderr.write(`\r\x1b[2K${FRAMES[this.frame]} ${text}`);
    this.progressShown = true;
  }

  clearProgress(): void {
    if (!this.progressShown) return;
    this.stderr.write('\r\x1b[2K');
    this.progressShown = false;
  }
}
