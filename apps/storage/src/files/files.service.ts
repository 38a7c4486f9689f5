import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { decodeCursor, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { usageEventId, type FileReadResponse } from '@platform/messaging';
import { UsageOutbox } from '@platform/service';
import { FILE_BACKEND, ObjectNotFoundError, type ByteRange, type FileBackend } from './backends/file-backend.js';
import { toFileResponse, type FileResponse, type FileRow } from './file.record.js';
import { FileErrors } from './files.errors.js';
import { filesRepository } from './files.repository.js';
import type { ListFilesQueryDto } from './dto/list-files.query.dto.js';
import { parseRange } from './http-ranges.js';
import { VerifyingStream } from './verifying-stream.js';

export type FileDownload =
  | { kind: 'full'; file: FileResponse; stream: Readable }
  | { kind: 'partial'; file: FileResponse; range: ByteRange; stream: Readable }
  | { kind: 'unsatisfiable'; file: FileResponse };

export interface VerifyResult {
  id: string;
  checksum_sha256: string;
  valid: boolean;
}

/** Reading and removing files. Every query runs in the caller's tenant transaction (RLS). */
@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);

  constructor(
    private readonly db: TenantDb,
    @Inject(FILE_BACKEND) private readonly backend: FileBackend,
    private readonly usage: UsageOutbox,
  ) {}

  async list(ctx: TenantContext, query: ListFilesQueryDto): Promise<Page<FileResponse>> {
    const after = decodeCursor(query.cursor, { id: 'uuid' });
    const rows = await this.db.run(ctx, (m) =>
      filesRepository.list(m, {
        namePrefix: query.name,
        contentType: query.content_type,
        createdAfter: query.created_after,
        createdBefore: query.created_before,
        beforeId: after?.id,
        limit: query.limit,
      }),
    );
    return toPage(rows, query.limit, toFileResponse, (r) => ({ id: r.id }));
  }

  async get(ctx: TenantContext, id: string): Promise<FileResponse> {
    return toFileResponse(await this.row(ctx, id));
  }

  /** The row goes first: if removing the object then fails, what is left is unreferenced garbage, not a broken file. */
  async delete(ctx: TenantContext, id: string): Promise<void> {
    const keyMode = (ctx as { keyMode?: 'live' | 'test' }).keyMode;
    // The bytes freed are metered in the delete's transaction (usage outbox), published after it.
    const { deleted, freed } = await this.db.run(ctx, async (m) => {
      const row = await filesRepository.delete(m, id);
      if (!row) return { deleted: undefined, freed: undefined };
      const fact = this.usage.fact(ctx, { metric: 'storage_bytes', quantity: -Number(row.size), eventId: usageEventId('file-freed', id), keyMode });
      await this.usage.add(m, [fact]);
      return { deleted: row, freed: fact };
    });
    if (!deleted || !freed) throw FileErrors.notFound();
    this.usage.publish([freed]);
    await this.backend
      .remove(deleted.storage_key)
      .catch((error: unknown) => this.logger.error(`file ${id} deleted but its object ${deleted.storage_key} was not removed: ${String(error)}`));
  }

  /** Opens the content for a download (the sender verifies a full download as it streams). */
  async openDownload(ctx: TenantContext, id: string, rangeHeader: string | undefined): Promise<FileDownload> {
    const row = await this.row(ctx, id);
    const file = toFileResponse(row);
    const request = parseRange(rangeHeader, file.size);
    if (request.kind === 'unsatisfiable') return { kind: 'unsatisfiable', file };
    if (request.kind === 'partial') return { kind: 'partial', file, range: request.range, stream: await this.open(row, request.range) };
    return { kind: 'full', file, stream: await this.open(row) };
  }

  /** Re-reads the whole object and compares it with the checksum recorded at upload. */
  async verify(ctx: TenantContext, id: string): Promise<VerifyResult> {
    const row = await this.row(ctx, id);
    let actual: string | null = null;
    let size = 0;
    try {
      const hash = createHash('sha256');
      const source = await this.backend.read(row.storage_key);
      await pipeline(
        source,
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            size += chunk.length;
            done();
          },
        }),
      );
      actual = hash.digest('hex');
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
    }
    const valid = actual === row.checksum_sha256 && size === Number(row.size);
    if (!valid) {
      this.logger.error(
        `file ${id}: stored object ${row.storage_key} ${actual === null ? 'is missing' : `does not match (sha256 ${actual}, ${size} bytes; recorded ${row.checksum_sha256}, ${row.size} bytes)`}`,
      );
    }
    return { id: row.id, checksum_sha256: row.checksum_sha256, valid };
  }

  /** The workflow step `file.read`: the whole content in base64, for files up to `maxBytes`. */
  async readForMessage(ctx: TenantContext, id: string, maxBytes: number): Promise<FileReadResponse> {
    const row = await this.row(ctx, id);
    const size = Number(row.size);
    if (size > maxBytes) throw FileErrors.tooLargeForMessage(size, maxBytes);
    const chunks: Buffer[] = [];
    try {
      const source = await this.open(row);
      await pipeline(
        source,
        new VerifyingStream({ checksumSha256: row.checksum_sha256, size }),
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
      );
    } catch (error) {
      if (error instanceof Error && error.name === 'ChecksumMismatchError') {
        this.logger.error(`file ${id}: ${error.message}`);
        throw FileErrors.contentCorrupt();
      }
      throw error;
    }
    return { fileId: row.id, name: row.name, contentType: row.content_type, size, contentBase64: Buffer.concat(chunks).toString('base64') };
  }

  private async row(ctx: TenantContext, id: string): Promise<FileRow> {
    const row = await this.db.run(ctx, (m) => filesRepository.get(m, id));
    if (!row) throw FileErrors.notFound();
    return row;
  }

  private async open(row: FileRow, range?: ByteRange): Promise<Readable> {
    try {
      return await this.backend.read(row.storage_key, range);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) {
        this.logger.error(`file ${row.id}: its stored object ${row.storage_key} is missing`);
        throw FileErrors.contentMissing();
      }
      throw error;
    }
  }
}
