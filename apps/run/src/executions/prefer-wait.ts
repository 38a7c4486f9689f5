/**
 * The `wait` preference of a `Prefer` header (RFC 7240 section 4.3), in seconds: how long the
 * client is willing to have the answer held. Undefined when the header names none or its value
 * is not a number of seconds: RFC 7240 has a server ignore a preference it cannot read, so such a
 * request is answered at once, as without the header.
 */
export function preferredWaitSeconds(header: string | undefined): number | undefined {
  if (!header) return undefined;
  for (const preference of header.split(',')) {
    const [token] = preference.split(';');
    const equals = token.indexOf('=');
    if (equals === -1 || token.slice(0, equals).trim().toLowerCase() !== 'wait') continue;
    const value = token
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
  }
  return undefined;
}
