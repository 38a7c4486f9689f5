import { describe, expect, it } from '@jest/globals';
import { markdownTo, markdownToHtml } from './markdown.js';
import { classifyHttp, parseRetryAfter } from './outcome.js';
import { render, type EmailContent, type SlackContent, type TeamsContent } from './render.js';
import { escapeMarkdown, renderTemplate } from './templates.js';

describe('rendering', () => {
  it('turns Markdown into safe HTML: raw HTML shown as text, only http(s) and mailto links', () => {
    const html = markdownToHtml('**hi** <img src=x onerror=alert(1)> [a](javascript:alert(1)) [b](https://x.test)');
    expect(html).toContain('<strong>hi</strong>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="https://x.test">b</a>');
  });

  it('writes plain text and Slack mrkdwn', () => {
    const md = '# Title\n\nSome **bold**, _em_ and `code` with [link](https://x.test).\n\n1. one\n2. two';
    expect(markdownTo(md, 'text')).toBe('Title\n\nSome bold, em and code with link (https://x.test).\n\n1. one\n2. two');
    expect(markdownTo(md, 'mrkdwn')).toBe('*Title*\n\nSome *bold*, _em_ and `code` with <https://x.test|link>.\n\n1. one\n2. two');
    expect(markdownTo('a < b & c', 'mrkdwn')).toBe('a &lt; b &amp; c');
  });

  it('renders each kind', () => {
    const email = render('email', 'Hi <there>', 'Body') as EmailContent;
    expect(email.html).toContain('<title>Hi &lt;there&gt;</title>');
    expect(email.text).toBe('Body');
    const slack = render('slack', null, 'x'.repeat(3500)) as SlackContent;
    expect(slack.blocks).toHaveLength(2);
  });

  it("escapes variables in Slack's text fallback as in its blocks: no mention, no hidden link", () => {
    const variables = { who: '<!channel>', link: '<https://evil.test|click>' };
    const subject = renderTemplate('Alert for {{who}}', variables, 'plain');
    const slack = render('slack', subject, renderTemplate('Hi {{who}}, see {{link}} & more', variables)) as SlackContent;
    expect(slack.text).toBe('Alert for &lt;!channel&gt;\nHi &lt;!channel&gt;, see &lt;https://evil.test|click&gt; &amp; more');
    expect(slack.blocks[1]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: 'Hi &lt;!channel&gt;, see &lt;https://evil.test|click&gt; &amp; more' } });
    // The body's own links stay links in the blocks; in the fallback they are plain text.
    expect((render('slack', null, '[docs](https://x.test)') as SlackContent).text).toBe('docs (https://x.test)');
    // Cut to 4,000 characters without leaving half an escape.
    const long = (render('slack', null, `${'x'.repeat(3998)}<<`) as SlackContent).text;
    expect(long).toBe('x'.repeat(3998));
  });
});

/** The TextBlocks of a rendered Teams card, in order. */
function teamsTexts(subject: string | null, markdown: string): string[] {
  const card = (render('teams', subject, markdown) as TeamsContent).card as { attachments: { content: { body: { text: string }[] } }[] };
  return card.attachments[0].content.body.map((b) => b.text);
}

describe('Teams cards', () => {
  it('escapes variables so they cannot format, link or mention', () => {
    const variables = { who: '<at>General</at>', link: '[click](https://evil.test)', loud: '**urgent** _now_' };
    const subject = renderTemplate('Alert {{loud}} {{who}}', variables, 'plain');
    const [title, body] = teamsTexts(subject, renderTemplate('Hi {{who}}, see {{link}}, {{loud}}', variables));
    expect(title).toBe('Alert \\*\\*urgent\\*\\* \\_now\\_ \\<at\\>General\\</at\\>');
    expect(body).toBe('Hi \\<at\\>General\\</at\\>, see \\[click\\](https://evil.test), \\*\\*urgent\\*\\* \\_now\\_');
    expect(body).not.toMatch(/(^|[^\\])(\*\*|\[click\]|<at>)/);
    // A value cannot start a list or a heading either.
    expect(teamsTexts(null, renderTemplate('{{{v}}}', { v: 'x\n\n' }) + renderTemplate('{{v}}', { v: '- a' }))).toEqual(['x', '\\- a']);
  });

  it('leaves punctuation inside a value as written (only a line-start marker is escaped)', () => {
    const values = { id: '01a225ef-5b30-75c9', at: '2026-11-29T06:12:53.178Z', n: '1. first' };
    const [text] = teamsTexts(null, renderTemplate('Run {{id}} at {{at}}', values));
    expect(text).toBe('Run 01a225ef-5b30-75c9 at 2026-11-29T06:12:53.178Z');
    expect(teamsTexts(null, renderTemplate('{{n}}\n{{id}}', values))).toEqual(['1\\. first\n01a225ef-5b30-75c9']);
  });

  it("keeps the template's own Markdown as Markdown", () => {
    const texts = teamsTexts(null, renderTemplate('# Run {{id}}\n\n**Failed** at [logs](https://x.test/{{{path}}})', { id: 'a_b', path: 'r/1' }));
    expect(texts).toEqual(['**Run a\\_b**', '**Failed** at [logs](https://x.test/r/1)']);
  });
});

describe('templates', () => {
  it('escapes values for Markdown unless inserted with triple braces', () => {
    expect(renderTemplate('{{v}}', { v: '**x** <b>' })).toBe(escapeMarkdown('**x** <b>'));
    expect(markdownToHtml(renderTemplate('{{v}}', { v: '**x** <b>' }))).toBe('<p>**x** &lt;b&gt;</p>\n');
    expect(renderTemplate('{{{v}}}', { v: '**x**' })).toBe('**x**');
    expect(renderTemplate('{{v}}', { v: 'a*b' }, 'plain')).toBe('a*b');
    expect(() => renderTemplate('{{#open}}', {})).toThrow();
  });
});

describe('outcomes', () => {
  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('retries 408, 429 and 5xx, and nothing else', () => {
    expect(classifyHttp(200, null, '').outcome).toBe('delivered');
    expect(classifyHttp(429, '2', '')).toMatchObject({ outcome: 'transient', retryAfterMs: 2000 });
    expect(classifyHttp(503, null, '').outcome).toBe('transient');
    expect(classifyHttp(404, null, 'no_service').outcome).toBe('permanent');
  });
});
