import { convert, type FormatCallback } from 'html-to-text';
import { extractText as pdfText, getDocumentProxy } from 'unpdf';

export const DOCUMENT_FORMATS = ['text', 'markdown', 'html', 'pdf'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

const BY_TYPE: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
};
const BY_EXTENSION: Record<string, DocumentFormat> = { txt: 'text', md: 'markdown', markdown: 'markdown', html: 'html', htm: 'html', pdf: 'pdf' };

/** The media type for a format, as stored on the document. */
export const CONTENT_TYPES: Record<DocumentFormat, string> = { text: 'text/plain', markdown: 'text/markdown', html: 'text/html', pdf: 'application/pdf' };

/** The format from the declared media type, else the name's extension, else the bytes (`%PDF-`, a leading `<`), else plain text. */
export function detectFormat(contentType: string | null | undefined, name: string, bytes: Buffer): DocumentFormat {
  const declared = BY_TYPE[(contentType ?? '').split(';')[0].trim().toLowerCase()];
  if (declared) return declared;
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension && BY_EXTENSION[extension]) return BY_EXTENSION[extension];
  const head = bytes.subarray(0, 512).toString('latin1').trimStart();
  if (head.startsWith('%PDF-')) return 'pdf';
  if (/^<(!doctype html|html|head|body|h1|p|div)\b/i.test(head)) return 'html';
  return 'text';
}

export function isKnownContentType(contentType: string): boolean {
  return BY_TYPE[contentType.split(';')[0].trim().toLowerCase()] !== undefined;
}

/** HTML headings become Markdown heading lines, so the chunker splits HTML by its sections too. */
const markdownHeading: FormatCallback = (elem, walk, builder, options) => {
  const level = Number(/^h([1-6])$/i.exec(elem.name ?? '')?.[1] ?? 1);
  builder.openBlock({ leadingLineBreaks: options.leadingLineBreaks ?? 2 });
  builder.addInline(`${'#'.repeat(level)} `);
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: options.trailingLineBreaks ?? 1 });
};

/** Thrown for a document whose content cannot be read as its format: indexing it again would fail again. */
export class UnreadableDocument extends Error {}

/**
 * The document's text: HTML through html-to-text (scripts, styles, images and link targets left
 * out; headings kept as `#` lines), PDF through unpdf (PDF.js, pure JavaScript), Markdown and
 * text as they are (UTF-8).
 */
export async function extractText(format: DocumentFormat, bytes: Buffer): Promise<string> {
  switch (format) {
    case 'text':
    case 'markdown':
      return bytes.toString('utf8').replace(/\r\n?/g, '\n');
    case 'html':
      return convert(bytes.toString('utf8'), {
        wordwrap: false,
        formatters: { markdownHeading },
        selectors: [
          ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, format: 'markdownHeading' })),
          { selector: 'a', options: { ignoreHref: true } },
          { selector: 'img', format: 'skip' },
          { selector: 'script', format: 'skip' },
          { selector: 'style', format: 'skip' },
          { selector: 'nav', format: 'skip' },
        ],
      });
    case 'pdf':
      try {
        const pdf = await getDocumentProxy(new Uint8Array(bytes));
        const { text } = await pdfText(pdf, { mergePages: false });
        return (Array.isArray(text) ? text : [text]).join('\n\n');
      } catch (error) {
        throw new UnreadableDocument(`the PDF could not be read: ${(error as Error).message}`);
      }
  }
}
