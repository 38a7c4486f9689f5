import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountSubjects, type Envelope, type VerifyKeyRequest, type VerifyKeyResponse } from '@platform/messaging';
import { KeyVerificationService } from './key-verification.service.js';

@Controller()
export class ApiKeysHandler {
  constructor(private readonly verification: KeyVerificationService) {}

  @MessagePattern(AccountSubjects.keysVerify)
  verify(@Payload() message: Envelope<VerifyKeyRequest>): Promise<VerifyKeyResponse> {
    return this.verification.verify(message?.data?.key);
  }
}
