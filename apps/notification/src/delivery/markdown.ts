import { Marked, type Token, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
const safeHref = (href: string) => /^(https?:|mailto:)/i.test(href);

/**
 * Markdown to HTML for email: raw HTML in the source is shown as text, not interpreted, and only
 * http(s) and mailto links are kept, so a body (or a variable in it) cannot inject markup or scripts.
 */
const html = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    link({ href, title, tokens }: Tokens.Link): string | false {
      const text = this.parser.parseInline(tokens);
      if (!safeHref(href)) return text;
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${text}</a>`;
    },
    image: ({ text }: Tokens.Image) => escapeHtml(text),
  },
});

export function markdownToHtml(markdown: string): string {
  return html.parse(markdown, { async: false });
}

export type Flavour = 'text' | 'mrkdwn' | 'card';

/**
 * Slack's mrkdwn escapes only these three (its formatting characters are left alone in plain words).
 * Unescaped, `<` starts a mention (`<!channel>`, `<@U123>`) or a link (`<https://x|label>`).
 */
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Adaptive Card TextBlocks read Markdown (`**`, `_`, `[x](url)`, lists) and Teams reads `<at>` as a
 * mention: literal text (a template variable, escaped by the template) is backslash-escaped again,
 * or the card would format what the Markdown parser had already unescaped. Only what can start
 * formatting is escaped, to keep the text readable: these characters anywhere, and list and heading
 * markers only at a line's start (see cardLineStarts).
 */
const cardChars = (s: string) => s.replace(/[\\`*_[\]<>~]/g, (c) => `\\${c}`);

/**
 * List and heading markers at a line's start. Applied to a whole block's text, never to one inline
 * token: marked cuts `A\-17` into `A`, `-`, `17`, and each piece looked like the start of a line.
 */
const cardLineStarts = (s: string) => s.replace(/^(\s*)([-+#])/gm, '$1\\$2').replace(/^(\s*\d+)\./gm, '$1\\.');

/** Plain text (a subject) for a TextBlock: shown as written. */
export const cardEscape = (s: string) => cardLineStarts(cardChars(s));

function inline(tokens: Token[] | undefined, f: Flavour): string {
  return (tokens ?? []).map((t) => inlineToken(t, f)).join('');
}

function inlineToken(t: Token, f: Flavour): string {
  switch (t.type) {
    case 'strong':
      return f === 'mrkdwn' ? `*${inline(t.tokens, f)}*` : f === 'card' ? `**${inline(t.tokens, f)}**` : inline(t.tokens, f);
    case 'em':
      return f === 'text' ? inline(t.tokens, f) : `_${inline(t.tokens, f)}_`;
    case 'del':
      return f === 'mrkdwn' ? `~${inline(t.tokens, f)}~` : inline(t.tokens, f);
    case 'codespan':
      return f === 'mrkdwn' ? `\`${(t as Tokens.Codespan).text}\`` : (t as Tokens.Codespan).text;
    case 'br':
      return '\n';
    case 'link': {
      const { href } = t as Tokens.Link;
      const text = inline(t.tokens, f);
      if (!safeHref(href)) return text;
      if (f === 'mrkdwn') return `<${href}|${text}>`;
      if (f === 'card') return `[${text}](${href})`;
      return text === href ? href : `${text} (${href})`;
    }
    case 'image':
      return (t as Tokens.Image).text;
    case 'escape':
    case 'html':
    case 'text': {
      const token = t as Tokens.Text;
      if (token.tokens?.length) return inline(token.tokens, f);
      return f === 'mrkdwn' ? slackEscape(token.text) : f === 'card' ? cardChars(token.text) : token.text;
    }
    default:
      return 'text' in t && typeof t.text === 'string' ? t.text : '';
  }
}

function block(t: Token, f: Flavour): string {
  return f === 'card' && LINE_TEXT.has(t.type) ? cardLineStarts(blockText(t, f)) : blockText(t, f);
}

/** Blocks whose text is inline text, where a literal marker at a line's start would become a list or heading. */
const LINE_TEXT = new Set(['paragraph', 'table', 'text', 'escape', 'html']);

function blockText(t: Token, f: Flavour): string {
  switch (t.type) {
    case 'heading':
      return f === 'mrkdwn' ? `*${inline(t.tokens, f)}*` : f === 'card' ? `**${inline(t.tokens, f)}**` : inline(t.tokens, f);
    case 'paragraph':
      return inline(t.tokens, f);
    case 'code':
      return f === 'mrkdwn' ? `\`\`\`\n${(t as Tokens.Code).text}\n\`\`\`` : (t as Tokens.Code).text;
    case 'blockquote':
      return blocks((t as Tokens.Blockquote).tokens, f)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'list': {
      const list = t as Tokens.List;
      return list.items
        .map((item, i) => {
          const marker = list.ordered ? `${Number(list.start || 1) + i}.` : f === 'mrkdwn' ? '•' : '-';
          return `${marker} ${blocks(item.tokens, f).replace(/\n/g, '\n   ')}`;
        })
        .join('\n');
    }
    case 'hr':
      return f === 'text' ? '----' : '';
    case 'space':
      return '';
    case 'table': {
      const table = t as Tokens.Table;
      const row = (cells: Tokens.TableCell[]) => cells.map((c) => inline(c.tokens, f)).join(' | ');
      return [row(table.header), ...table.rows.map(row)].join('\n');
    }
    default:
      return inlineToken(t, f);
  }
}

function blocks(tokens: Token[], f: Flavour): string {
  return tokens
    .map((t) => block(t, f))
    .filter((s) => s !== '')
    .join('\n\n');
}

/** Markdown to plain text (email's text part), Slack mrkdwn, or the Markdown subset Adaptive Card TextBlocks show. */
export function markdownTo(markdown: string, f: Flavour): string {
  return blocks(html.lexer(markdown), f).trim();
}

/** The blocks separately (one TextBlock each in a card). */
export function markdownBlocks(markdown: string): { kind: 'heading' | 'code' | 'other'; text: string }[] {
  return html
    .lexer(markdown)
    .map((t) => ({ kind: t.type === 'heading' ? ('heading' as const) : t.type === 'code' ? ('code' as const) : ('other' as const), text: block(t, 'card') }))
    .filter((b) => b.text !== '');
}
