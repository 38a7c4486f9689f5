import { Inject, Injectable } from '@nestjs/common';
import { PublicFetchError, fetchPublicUrl } from '@platform/common';
import { Bus, BusError, StorageSubjects, messageContext, type TenantRef } from '@platform/messaging';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';
import type { DocumentSource } from '../documents/document.record.js';

/** A source that can never be read (deleted file, refused URL): the document fails with this reason. */
export class SourceUnavailable extends Error {}

export interface SourceContent {
  bytes: Buffer;
  contentType: string | null;
}

/** Reads a document's bytes from where it came from: a stored file (over the bus) or a URL (SSRF rules of http.request). */
@Injectable()
export class DocumentSourceReader {
  constructor(
    private readonly bus: Bus,
    @Inject(KB_CONFIG) private readonly config: KbConfig,
  ) {}

  async read(tenant: TenantRef, source: DocumentSource): Promise<SourceContent> {
    if (source.type === 'file') return this.file(tenant, source.file_id);
    if (source.type === 'url') return this.url(source.url);
    throw new SourceUnavailable('the uploaded content is missing');
  }

  private async file(tenant: TenantRef, fileId: string): Promise<SourceContent> {
    try {
      const file = await this.bus.request(StorageSubjects.filesRead, { fileId, maxBytes: this.config.KB_MAX_DOCUMENT_BYTES }, messageContext(tenant), {
        timeoutMs: 60_000,
      });
      return { bytes: Buffer.from(file.contentBase64, 'base64'), contentType: file.contentType };
    } catch (error) {
      // A refusal (no such file, too large) is final; a storage service that is down is not.
      if (error instanceof BusError && error.code === 'remote' && error.remote && error.remote.status < 500)
        throw new SourceUnavailable(`file ${fileId}: ${error.remote.message}`);
      throw error;
    }
  }

  private async url(url: string): Promise<SourceContent> {
    try {
      const response = await fetchPublicUrl(url, {
        allowPrivateNetworks: this.config.KB_ALLOW_PRIVATE_NETWORKS,
        limitBytes: this.config.KB_MAX_DOCUMENT_BYTES,
        timeoutMs: 30_000,
      });
      const type = response.headers['content-type'];
      return { bytes: response.body ?? Buffer.alloc(0), contentType: typeof type === 'string' ? type : null };
    } catch (error) {
      if (error instanceof PublicFetchError) {
        const transient =
          error.code === 'network_error' || error.code === 'timeout' || (error.code === 'http_error' && /answered (5\d\d|429)/.test(error.message));
        if (!transient) throw new SourceUnavailable(error.message);
      }
      throw error;
    }
  }
}
