import { AppError } from '../errors/app.errors.js';

/** What stands where a secret value was. */
export const REDACTED = '[redacted]';

/** Shorter values are not secrets worth the false hits (and would blank out ordinary words). */
const MIN_SECRET_LENGTH = 4;
/** A text ending in this much of a secret (a cut-off echo) has that end replaced too. */
const MIN_PARTIAL_LENGTH = 8;
/** A URL's path and query, or one query value, this long counts as secret material of a secret URL. */
const MIN_URL_PART_LENGTH = 8;

/**
 * Replaces, by value, every secret in play in one call to a third party (a provider's API key,
 * a connection's credentials and tokens, a channel's webhook URL, workflow secrets) wherever it
 * turns up in what that call produced: answers, error messages, outputs, log lines. A third party
 * may echo what it received in any of these, so nothing it sends back is shown unredacted.
 *
 * Besides each value as given, the forms it travels in are matched: URL-encoded (query strings,
 * forms), JSON-escaped (an echoed request body), base64 (a Basic authorization header, when the
 * caller also adds the `user:password` pair), and for a secret URL its path and query (a webhook
 * URL whose server echoes only the path it was called on). A text that ends in the start of a
 * secret (an echo cut off by a length limit) loses that end too.
 */
export class SecretRedactor {
  private readonly secrets: string[];
  /** Every form of every secret, longest first, so a secret containing another is replaced whole. */
  private readonly needles: string[];

  constructor(secrets: Iterable<string | null | undefined>) {
    this.secrets = [...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
    const needles = new Set<string>();
    for (const secret of this.secrets) for (const form of formsOf(secret)) if (form.length >= MIN_SECRET_LENGTH) needles.add(form);
    this.needles = [...needles].sort((a, b) => b.length - a.length);
  }

  /** A redactor of the values of a record (a workflow's secrets, a connection's credentials). */
  static of(record: object | null | undefined): SecretRedactor {
    return new SecretRedactor(record ? Object.values(record).filter((v): v is string => typeof v === 'string') : []);
  }

  /** Whether there is anything to redact at all. */
  get empty(): boolean {
    return this.needles.length === 0;
  }

  /** This redactor and more secrets. */
  with(secrets: Iterable<string | null | undefined>): SecretRedactor {
    return new SecretRedactor([...this.secrets, ...secrets]);
  }

  /** A text with every secret form replaced. */
  text(text: string): string {
    if (this.empty || !text) return text;
    const out = this.whole(text);
    const pending = this.pendingLength(out);
    return pending >= MIN_PARTIAL_LENGTH ? `${out.slice(0, out.length - pending)}${REDACTED}` : out;
  }

  /** Whole occurrences only (no cut-off end): what a stream may pass on while its end is held back. */
  whole(text: string): string {
    let out = text;
    for (const needle of this.needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    return out;
  }

  /** Strings anywhere in plain JSON-like data (arrays, plain objects; keys too); other values as they are. */
  redact<T>(value: T): T {
    if (this.empty || value === null || value === undefined) return value;
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.redact(v)) as T;
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.redact<unknown>(v)])) as T;
    return value;
  }

  /**
   * The same error with its message, stack, details and cause redacted (in place: its class, and
   * so its status and code, stay); anything else thrown is redacted as data.
   */
  error<E>(error: E): E {
    if (this.empty) return error;
    if (!(error instanceof Error)) return this.redact(error);
    error.message = this.text(error.message);
    if (error.stack) error.stack = this.text(error.stack);
    if (error instanceof AppError && error.details) (error as { details?: unknown }).details = this.redact(error.details);
    if (error.cause !== undefined && error.cause !== error) error.cause = this.error(error.cause);
    return error;
  }

  /** Runs a call with secrets in play: its answer, and what it throws, come back redacted. */
  async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return this.redact(await call());
    } catch (error) {
      throw this.error(error);
    }
  }

  /** A redactor for text that arrives in pieces (a streamed answer); see StreamingRedaction. */
  stream(): StreamingRedaction {
    return new StreamingRedaction(this);
  }

  /** How much of the end of `text` is the start of a secret (0 when none is). */
  pendingLength(text: string): number {
    let longest = 0;
    for (const needle of this.needles) {
      // Candidate starts are the places within reach of the end holding the needle's first character.
      for (let at = text.indexOf(needle[0], Math.max(0, text.length - needle.length + 1)); at !== -1; at = text.indexOf(needle[0], at + 1)) {
        if (text.length - at <= longest) break;
        if (needle.startsWith(text.slice(at))) {
          longest = text.length - at;
          break;
        }
      }
    }
    return longest;
  }
}

/**
 * Redaction of a text that arrives in pieces: a secret split across two pieces would pass a
 * per-piece check, so the end of what has arrived that could be the start of a secret is held
 * back until the next piece (or the end) shows what it is. Only that end waits; the rest goes on
 * at once.
 */
export class StreamingRedaction {
  private held = '';

  constructor(private readonly redactor: SecretRedactor) {}

  /** The text that can be passed on now (possibly empty). */
  push(piece: string): string {
    if (this.redactor.empty) return piece;
    const text = this.redactor.whole(this.held + piece);
    const pending = this.redactor.pendingLength(text);
    this.held = text.slice(text.length - pending);
    return text.slice(0, text.length - pending);
  }

  /** What is still held, at the end of the stream. */
  flush(): string {
    const rest = this.redactor.text(this.held);
    this.held = '';
    return rest;
  }
}

function formsOf(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)];
  const base64 = Buffer.from(secret, 'utf8').toString('base64');
  forms.push(base64, base64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url'));
  forms.push(...urlParts(secret));
  return forms;
}

/** The secret parts of a secret URL: its path with its query, each query value, a password. */
function urlParts(secret: string): string[] {
  if (!/^https?:\/\//i.test(secret)) return [];
  let url: URL;
  try {
    url = new URL(secret);
  } catch {
    return [];
  }
  const parts = [`${url.pathname}${url.search}`, url.search.slice(1), ...url.searchParams.values(), decodeURIComponent(url.password)];
  return parts.filter((p) => p.length >= MIN_URL_PART_LENGTH && p !== '/');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
