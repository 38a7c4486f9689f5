import { Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import { AppError } from '@platform/common';
import type { OperationCall, OperationResult } from './operation.types.js';
import { Outbound } from '../outbound/outbound.js';

interface SmtpSettings {
  host: string;
  port?: number;
  security?: 'tls' | 'starttls' | 'none';
  from: string;
}

/** SMTP through nodemailer: `send_email`, and `verify` (log in without sending) for connection tests. */
@Injectable()
export class SmtpOperation {
  constructor(private readonly outbound: Outbound) {}

  async run(call: OperationCall): Promise<OperationResult> {
    const settings = call.connection.settings as unknown as SmtpSettings;
    const [address] = await this.outbound.addresses(settings.host, call.signal ?? AbortSignal.timeout(this.outbound.timeoutMs));
    const security = settings.security ?? 'starttls';
    const transport = nodemailer.createTransport({
      host: address.address,
      port: settings.port ?? (security === 'tls' ? 465 : 587),
      secure: security === 'tls',
      requireTLS: security === 'starttls',
      ignoreTLS: security === 'none',
      tls: { servername: settings.host },
      auth: call.connection.auth_type === 'basic' ? { user: call.credentials.username ?? '', pass: call.credentials.password ?? '' } : undefined,
      connectionTimeout: this.outbound.timeoutMs,
      greetingTimeout: this.outbound.timeoutMs,
      socketTimeout: this.outbound.timeoutMs,
    });
    try {
      if (call.operation.id === 'verify') {
        await transport.verify();
        return { status: 200, ok: true, output: { ok: true } };
      }
      const input = call.input as {
        to: string | string[];
        cc?: string[];
        subject: string;
        text?: string;
        html?: string;
        reply_to?: string;
        headers?: Record<string, string>;
      };
      const info = await transport.sendMail({
        from: settings.from,
        to: input.to,
        cc: input.cc,
        subject: input.subject,
        text: input.text,
        html: input.html,
        replyTo: input.reply_to,
        headers: input.headers,
      });
      return { status: 200, ok: true, output: { message_id: info.messageId, accepted: info.accepted, rejected: info.rejected } };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      if (code) return { status: code, ok: false, output: null, message: (error as Error).message.slice(0, 500), retryable: code >= 400 && code < 500 };
      throw new AppError('connector_unreachable', 502, `SMTP at ${settings.host}: ${(error as Error).message.slice(0, 300)}`);
    } finally {
      transport.close();
    }
  }
}
