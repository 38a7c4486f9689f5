import { IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

/** Subjects the connection service answers or emits. Added here as its features are built. */
export const ConnectionSubjects = {
  /**
   * Request: run one connector operation with a connection's credentials, inside the connection
   * service (credentials never leave it). Used by the engine's `connector` step and by AI agents'
   * connector tools. The caller's tenant and customer (scope) travel in the message context.
   */
  operationsExecute: 'connection.operations.execute',
} as const;

/** Exactly one of `connectionId` and `customerConnection`. */
export class ExecuteOperationRequest {
  @IsOptional()
  @IsUUID()
  connectionId?: string;

  /** A connector id: resolved at run time to the calling customer's own connection of that connector. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  customerConnection?: string;

  @IsString()
  @MaxLength(200)
  operationId!: string;

  @IsObject()
  input!: Record<string, unknown>;

  /** Sent in the operation's idempotency header when it has one (a retried step then never creates twice). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

/** The remote side's answer: its HTTP status (or 200 for non-HTTP connectors) and parsed output. */
export interface ExecuteOperationResult {
  status: number;
  output: unknown;
  /** False when the remote side refused (a non-2xx status, or a 2xx whose body says it failed). */
  ok?: boolean;
  /** The status is one of the connector's retryable statuses. */
  retryable?: boolean;
  /** The remote side's `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** The remote error message, when not ok. */
  message?: string;
}

export interface ConnectionRequests {
  [ConnectionSubjects.operationsExecute]: { request: ExecuteOperationRequest; response: ExecuteOperationResult };
}

/** None yet: added here as the service's features are built. */
export type ConnectionEvents = Record<never, never>;
