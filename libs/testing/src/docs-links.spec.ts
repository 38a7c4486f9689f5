import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT } from '@platform/launcher';

/**
 * The documentation lives in the repository (README.md and docs/), so a reader who cloned it
 * must be able to follow every link: each relative link names a file that exists here, and its
 * #anchor, when it has one, a heading of that file. Nothing points outside the repository.
 */

export interface MarkdownLink {
  /** The link target as written, without the angle brackets of `<…>` targets. */
  target: string;
  /** 1-based line of the link in its file. */
  line: number;
}

/** Blanks fenced code blocks, keeping line breaks so line numbers stay right. */
export function withoutFences(markdown: string): string {
  let fence: string | undefined;
  const lines = markdown.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker) {
        fence = marker;
        return '';
      }
      return line;
    }
    if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    return '';
  });
  return lines.join('\n');
}

/** Blanks fenced code blocks and inline code spans: neither holds links. */
export function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)[\s\S]*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}

const INLINE_LINK = /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm;

/** Every inline link (`[text](target)`, images too) and reference definition (`[label]: target`) outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const text = withoutCode(markdown);
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const links: MarkdownLink[] = [];
  for (const pattern of [INLINE_LINK, REFERENCE_DEFINITION]) {
    for (const match of text.matchAll(pattern)) {
      const raw = match[1];
      links.push({ target: raw.startsWith('<') ? raw.slice(1, -1) : raw, line: lineAt(match.index) });
    }
  }
  return links.sort((a, b) => a.line - b.line);
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file offers: one per heading (`-1`, `-2` for repeats) and explicit `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = withoutFences(markdown);
  for (const match of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const base = headingSlug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  return anchors;
}

/** README.md and every Markdown file under docs/, relative to the repository root. */
export function documentationFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...(existsSync(join(root, 'docs')) ? walk('docs').sort() : [])];
}

const SKIPPED_SCHEMES = /^(https?|mailto):/i;
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

interface ResolvedLink {
  link: MarkdownLink;
  /** The file the link names, as an absolute path (the linking file itself for `#anchor`). */
  file: string;
  anchor?: string;
}

/** Checks one file's links; returns the problems (empty when all is well) and the links to follow for anchors. */
function checkFile(root: string, file: string): { problems: string[]; resolved: ResolvedLink[] } {
  const absolute = join(root, file);
  const problems: string[] = [];
  const resolved: ResolvedLink[] = [];
  for (const link of markdownLinks(readFileSync(absolute, 'utf8'))) {
    const where = `${file}:${link.line} (${link.target})`;
    const target = link.target.trim();
    if (target === '') {
      problems.push(`${where}: empty link`);
      continue;
    }
    if (SKIPPED_SCHEMES.test(target)) continue;
    if (ANY_SCHEME.test(target)) {
      problems.push(`${where}: only relative paths, http(s) and mailto links are allowed`);
      continue;
    }
    const hashAt = target.indexOf('#');
    const pathPart = (hashAt === -1 ? target : target.slice(0, hashAt)).split('?')[0];
    const anchor = hashAt === -1 ? undefined : target.slice(hashAt + 1);
    if (pathPart === '') {
      resolved.push({ link, file: absolute, anchor });
      continue;
    }
    let path: string;
    try {
      path = decodeURI(pathPart);
    } catch {
      problems.push(`${where}: the path is not valid URL encoding`);
      continue;
    }
    if (path.startsWith('/')) {
      problems.push(`${where}: use a path relative to the linking file, not an absolute one`);
      continue;
    }
    const full = resolve(dirname(absolute), path);
    const inRepo = relative(root, full);
    if (inRepo.startsWith('..') || isAbsolute(inRepo)) {
      problems.push(`${where}: points outside the repository`);
      continue;
    }
    if (!existsSync(full)) {
      problems.push(`${where}: no such file ${inRepo}`);
      continue;
    }
    resolved.push({ link, file: full, anchor });
  }
  return { problems, resolved };
}

describe('the Markdown link checker', () => {
  const sample = [
    '# Title',
    'See [setup](docs/setup.md#first-steps "Setup") and ![logo](img/logo.png).',
    '`[not](a-link.md)` and [site](https://example.com), [mail](mailto:a@b.test), [here](#title).',
    '```bash',
    'echo "[also not](inside-a-fence.md)"',
    '```',
    '[ref]: <docs/with space.md>',
    '## Title',
    '### `X-API-Key` and Bearer: the two forms',
  ].join('\n');

  it('finds inline links, images and reference definitions, and skips code', () => {
    expect(markdownLinks(sample)).toEqual([
      { target: 'docs/setup.md#first-steps', line: 2 },
      { target: 'img/logo.png', line: 2 },
      { target: 'https://example.com', line: 3 },
      { target: 'mailto:a@b.test', line: 3 },
      { target: '#title', line: 3 },
      { target: 'docs/with space.md', line: 7 },
    ]);
  });

  it('names headings as GitHub does', () => {
    expect([...anchorsOf(sample)]).toEqual(['title', 'title-1', 'x-api-key-and-bearer-the-two-forms']);
  });
});

describe('documentation links', () => {
  const files = documentationFiles(REPO_ROOT);

  it('has a docs/ folder with an index', () => {
    expect(files).toContain('docs/README.md');
  });

  it.each(files)('%s: every relative link names a file in the repository', (file) => {
    expect(checkFile(REPO_ROOT, file).problems).toEqual([]);
  });

  it.each(files)('%s: every #anchor names a heading of its file', (file) => {
    const problems: string[] = [];
    for (const { link, file: target, anchor } of checkFile(REPO_ROOT, file).resolved) {
      if (anchor === undefined || !target.endsWith('.md')) continue;
      if (!anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))) {
        problems.push(`${file}:${link.line} (${link.target}): no heading '#${anchor}' in ${relative(REPO_ROOT, target)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(files)('%s: never sends the reader outside the repository (../shared)', (file) => {
    const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
    const outside = lines.flatMap((line, i) => (/\.\.\/shared\b|\/work\/shared\b/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    expect(outside).toEqual([]);
  });

  it('links the index from README.md, and every docs page from the index', () => {
    const linked = (file: string) => new Set(checkFile(REPO_ROOT, file).resolved.map((r) => relative(REPO_ROOT, r.file).split('\\').join('/')));
    expect([...linked('README.md')]).toContain('docs/README.md');
    const fromIndex = linked('docs/README.md');
    const pages = files.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md');
    expect(pages.filter((page) => !fromIndex.has(page))).toEqual([]);
  });
});
