/**
 * Secret values are resolved at run time and must never be stored: every input, output, error and
 * log line passes through here before it is written, with each secret's value replaced.
 */
export class Redactor {
  private readonly values: string[];

  constructor(secrets: Record<string, string>) {
    // Longest first, so a secret containing another is replaced whole.
    this.values = Object.values(secrets).filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  }

  redact<T>(value: T): T {
    if (!this.values.length || value === null || value === undefined) return value;
    if (typeof value === 'string') return this.redactString(value) as T;
    if (Array.isArray(value)) return (value as unknown[]).map((v) => this.redact(v)) as T;
    if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, this.redact<unknown>(v)])) as T;
    return value;
  }

  private redactString(text: string): string {
    let out = text;
    for (const secret of this.values) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  }
}

/** Names of the secrets a definition refers to (`secrets.name` or `secrets["name"]` in expressions). */
export function referencedSecrets(definition: unknown): string[] {
  const names = new Set<string>();
  const text = JSON.stringify(definition);
  for (const m of text.matchAll(/secrets\.([A-Za-z0-9_]+)/g)) names.add(m[1]);
  for (const m of text.matchAll(/secrets\[\\?["']([A-Za-z0-9_.-]+)\\?["']\]/g)) names.add(m[1]);
  return [...names];
}
