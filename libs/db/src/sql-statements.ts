/**
 * How many statements a query text holds: PostgreSQL's simple protocol runs a text of several
 * `;`-separated statements in one round trip (TenantDb.run opens its transaction that way). Semicolons
 * inside quotes, dollar quotes and comments do not separate; empty statements do not count. A
 * text sent with parameters or as a prepared statement is one statement by protocol.
 */
export function statementsIn(text: string): number {
  let count = 0;
  let content = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ';') {
      if (content) count++;
      content = false;
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') continue;
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    content = true;
    if (c === "'" || c === '"') i = closing(text, i, c);
    else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))?.[0];
      if (tag) {
        const end = text.indexOf(tag, i + tag.length);
        i = end === -1 ? text.length : end + tag.length - 1;
      }
    }
  }
  return content ? count + 1 : Math.max(count, 1);
}

/** The index of the quote closing the one at `start` (a doubled quote is an escaped one). */
function closing(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] !== quote) continue;
    if (text[i + 1] === quote) i++;
    else return i;
  }
  return text.length;
}
