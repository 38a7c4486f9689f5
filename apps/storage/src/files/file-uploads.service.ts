import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { Bus, StorageSubjects, messageContext, usageEventId, type FileWriteRequest, type FileWriteResponse } from '@platform/messaging';
import { UsageOutbox } from '@platform/service';
import { FILE_BACKEND, type FileBackend } from './backends/file-backend.js';
import type { InspectedContent } from './content-inspector.js';
import { toFileResponse, type FileResponse } from './file.record.js';
import { inspectContent, storeContent } from './file-content.js';
import { FILES_CONFIG, type FilesConfig } from './files.config.js';
import { FileErrors } from './files.errors.js';
import { filesRepository, type UploadKeyRow } from './files.repository.js';
import { fileNameProblem, isMultipartFormData, receiveUpload } from './multipart-upload.js';

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export interface UploadResult {
  file: FileResponse;
  /** True when an Idempotency-Key repeated an earlier upload: the first answer is returned. */
  replayed: boolean;
}

interface NewContent {
  id: string;
  storageKey: string;
  name: string;
  metadata: Record<string, unknown>;
  declaredType: string | null;
  content: InspectedContent;
}

/** Who wrote, for the event envelope and the row's created_by. */
export type WriterContext = TenantContext & { requestId: string; actor: string; keyMode?: 'live' | 'test' };

function fingerprint(name: string, metadata: Record<string, unknown>, content: InspectedContent): string {
  return createHash('sha256')
    .update(JSON.stringify([name, metadata, content.size, content.checksumSha256]))
    .digest('hex');
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Writing files: HTTP uploads (streamed, idempotent) and the workflow step `file.write`. Content
 * is stored first and the row written only after the object is complete; any failure on the way
 * removes the object, so there is never a row without content nor (beyond a crash) content
 * without a row. The event goes out after the commit.
 */
@Injectable()
export class FileUploadsService {
  private readonly logger = new Logger(FileUploadsService.name);

  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    @Inject(FILE_BACKEND) private readonly backend: FileBackend,
    @Inject(FILES_CONFIG) private readonly config: FilesConfig,
    private readonly usage: UsageOutbox,
  ) {}

  async upload(principal: Principal, req: IncomingMessage & { id?: string }, idempotencyKey: string | undefined): Promise<UploadResult> {
    if (!isMultipartFormData(req.headers['content-type'])) {
      req.resume();
      throw FileErrors.notMultipart();
    }
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      req.resume();
      throw FileErrors.invalidIdempotencyKey();
    }
    const writer: WriterContext = {
      tenantId: principal.tenantId,
      environmentId: principal.environmentId,
      scopeId: principal.scopeId,
      requestId: req.id ?? '',
      actor: principal.subject,
      keyMode: principal.keyMode,
    };
    const prior = idempotencyKey ? await this.db.run(writer, (m) => filesRepository.findUploadKey(m, idempotencyKey, writer.scopeId ?? null)) : undefined;

    const id = newId();
    const storageKey = `${principal.tenantId}/${id}`;
    let written = false;
    try {
      const upload = await receiveUpload(req, this.config.UPLOAD_LIMIT_BYTES, async (file) => {
        if (prior) return inspectContent(file);
        const content = await storeContent(this.backend, storageKey, file);
        written = true;
        return content;
      });
      const name = upload.fields.name ?? upload.filename ?? '';
      const problem = fileNameProblem(name);
      if (problem) throw FileErrors.invalid('name', upload.fields.name === undefined ? `${problem} (send a name field or a filename)` : problem);
      const metadata = upload.fields.metadata ?? {};
      const print = fingerprint(name, metadata, upload.stored);
      if (prior) return this.replay(prior, print);

      const item: NewContent = { id, storageKey, name, metadata, declaredType: upload.declaredType ?? null, content: upload.stored };
      try {
        const file = await this.commit(writer, item, idempotencyKey ? { key: idempotencyKey, fingerprint: print } : undefined);
        return { file, replayed: false };
      } catch (error) {
        if (!idempotencyKey || !isUniqueViolation(error)) throw error;
        // Another upload with the same key committed first: answer as if this one came second.
        const winner = await this.db.run(writer, (m) => filesRepository.findUploadKey(m, idempotencyKey, writer.scopeId ?? null));
        if (!winner) throw error;
        await this.discard(storageKey);
        written = false;
        return this.replay(winner, print);
      }
    } catch (error) {
      if (written) await this.discard(storageKey);
      throw error;
    }
  }

  /** The workflow step `file.write`: small content in base64, stored and announced like an upload. */
  async writeFromMessage(writer: WriterContext, body: FileWriteRequest): Promise<FileWriteResponse> {
    const problem = fileNameProblem(body.name);
    if (problem) throw FileErrors.invalid('name', problem);
    if (!BASE64.test(body.contentBase64)) throw FileErrors.invalidBase64();
    const bytes = Buffer.from(body.contentBase64, 'base64');
    if (bytes.length > this.config.UPLOAD_LIMIT_BYTES) throw FileErrors.tooLarge(this.config.UPLOAD_LIMIT_BYTES);
    const id = newId();
    const storageKey = `${writer.tenantId}/${id}`;
    const content = await storeContent(this.backend, storageKey, Readable.from([bytes]));
    try {
      const file = await this.commit(writer, { id, storageKey, name: body.name, metadata: {}, declaredType: body.contentType ?? null, content });
      return { fileId: file.id, name: file.name, size: file.size, contentType: file.content_type, checksum: file.checksum_sha256 };
    } catch (error) {
      await this.discard(storageKey);
      throw error;
    }
  }

  private async commit(writer: WriterContext, item: NewContent, idempotency?: { key: string; fingerprint: string }): Promise<FileResponse> {
    // The bytes stored are metered in the row's transaction (usage outbox), published after it.
    const stored = this.usage.fact(
      writer,
      { metric: 'storage_bytes', quantity: item.content.size, eventId: usageEventId('file-stored', item.id), keyMode: writer.keyMode },
      { requestId: writer.requestId, actor: writer.actor },
    );
    const file = await this.db.run(writer, async (m) => {
      const row = await filesRepository.insert(m, {
        tenantId: writer.tenantId,
        environmentId: writer.environmentId,
        scopeId: writer.scopeId ?? null,
        id: item.id,
        name: item.name,
        size: item.content.size,
        contentType: item.content.contentType,
        declaredContentType: item.declaredType,
        checksumSha256: item.content.checksumSha256,
        storageKey: item.storageKey,
        metadata: item.metadata,
        createdBy: writer.actor,
      });
      const response = toFileResponse(row);
      if (idempotency) {
        await filesRepository.insertUploadKey(m, {
          tenantId: writer.tenantId,
          environmentId: writer.environmentId,
          scopeId: writer.scopeId ?? null,
          id: newId(),
          idempotencyKey: idempotency.key,
          fingerprint: idempotency.fingerprint,
          fileId: row.id,
          response,
        });
      }
      await this.usage.add(m, [stored]);
      return response;
    });
    const context = messageContext(writer, { requestId: writer.requestId, actor: writer.actor });
    try {
      this.bus.emit(StorageSubjects.fileUploaded, { fileId: file.id, name: file.name, size: file.size, contentType: file.content_type }, context);
    } catch (error) {
      // The file is committed and stays; only the announcement is lost.
      this.logger.error(`storage.file.uploaded for ${file.id} not published: ${String(error)}`);
    }
    this.usage.publish([stored]);
    return file;
  }

  private replay(prior: UploadKeyRow, print: string): UploadResult {
    if (prior.fingerprint !== print) throw FileErrors.idempotencyMismatch();
    return { file: prior.response, replayed: true };
  }

  private async discard(storageKey: string): Promise<void> {
    await this.backend
      .remove(storageKey)
      .catch((error: unknown) => this.logger.error(`could not remove object ${storageKey}; it is garbage now: ${String(error)}`));
  }
}
