import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  Bus,
  FileReadRequest,
  FileWriteRequest,
  STORAGE_LIMITS,
  StorageSubjects,
  TenantPayload,
  type FileReadResponse,
  type FileWriteResponse,
  type TenantMessage,
} from '@platform/messaging';
import { FileUploadsService, type WriterContext } from './file-uploads.service.js';
import { FilesService } from './files.service.js';

function writerOf({ tenant, context }: TenantMessage<unknown>): WriterContext {
  return { ...tenant, requestId: context.requestId, actor: context.actor ?? 'system:unknown' };
}

/** Room for base64 (4/3) and the JSON envelope inside one NATS message. */
function messageCapacity(bus: Bus): number {
  return Math.floor(((bus.maxPayload - 4096) * 3) / 4);
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
  read(@TenantPayload(FileReadRequest) message: TenantMessage<FileReadRequest>): Promise<FileReadResponse> {
    // A reply larger than the NATS server's max_payload could not be sent: that bounds maxBytes too.
    const limit = Math.min(message.body.maxBytes ?? STORAGE_LIMITS.defaultMessageReadBytes, messageCapacity(this.bus));
    return this.files.readForMessage(writerOf(message), message.body.fileId, limit);
  }

  @MessagePattern(StorageSubjects.filesWrite)
  write(@TenantPayload(FileWriteRequest) message: TenantMessage<FileWriteRequest>): Promise<FileWriteResponse> {
    return this.uploads.writeFromMessage(writerOf(message), message.body);
  }
}
