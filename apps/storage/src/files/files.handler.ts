import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { rpcError, validatePayload } from '@platform/common';
import { Bus, StorageSubjects, hasTenant, type Envelope, type FileReadResponse, type FileWriteResponse } from '@platform/messaging';
import { DEFAULT_MESSAGE_READ_BYTES, FileReadPayload, FileWritePayload } from './file.payloads.js';
import { FileUploadsService, type WriterContext } from './file-uploads.service.js';
import { FilesService } from './files.service.js';

function writerOf(message: Envelope<unknown>): WriterContext {
  const context = message?.context;
  if (!context || !hasTenant(context)) throw rpcError(400, 'tenant_required', 'The message carries no tenant context');
  return { tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null, requestId: context.requestId ?? '', actor: context.actor ?? 'system:unknown' };
}

/** Room for base64 (4/3) and the JSON envelope inside one NATS message. */
function messageCapacity(bus: Bus): number {
  const maxPayload = bus.connection.info?.max_payload ?? 1024 * 1024;
  return Math.floor(((maxPayload - 4096) * 3) / 4);
}

/** The workflow steps `file.read` and `file.write`: small files as base64, in the caller's tenant. */
@Controller()
export class FilesHandler {
  constructor(
    private readonly files: FilesService,
    private readonly uploads: FileUploadsService,
    private readonly bus: Bus,
  ) {}

  @MessagePattern(StorageSubjects.filesRead)
  async read(@Payload() message: Envelope<unknown>): Promise<FileReadResponse> {
    const writer = writerOf(message);
    const body = validatePayload(FileReadPayload, message.data);
    // A reply larger than the NATS server's max_payload could not be sent: that bounds maxBytes too.
    const limit = Math.min(body.maxBytes ?? DEFAULT_MESSAGE_READ_BYTES, messageCapacity(this.bus));
    return this.files.readForMessage(writer, body.fileId, limit);
  }

  @MessagePattern(StorageSubjects.filesWrite)
  async write(@Payload() message: Envelope<unknown>): Promise<FileWriteResponse> {
    return this.uploads.writeFromMessage(writerOf(message), validatePayload(FileWritePayload, message.data));
  }
}
