/** An ISO time from the address as a `datetime-local` value (local time, to the minute), and back. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function fromLocalInput(local: string): string {
  return local ? new Date(local).toISOString() : '';
}

/** A time from the address, as ISO 8601, or undefined when absent or not a time. */
export function isoParam(value: string | null): string | undefined {
  return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;
}
