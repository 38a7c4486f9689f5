import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AccountSubjects, SystemPayload, VerifyKeyRequest, type SystemMessage, type VerifyKeyResponse } from '@platform/messaging';
import { KeyVerificationService } from './key-verification.service.js';

@Controller()
export class ApiKeysHandler {
  constructor(private readonly verification: KeyVerificationService) {}

  @MessagePattern(AccountSubjects.keysVerify)
  verify(@SystemPayload(VerifyKeyRequest) { body }: SystemMessage<VerifyKeyRequest>): Promise<VerifyKeyResponse> {
    return this.verification.verify(body.key);
  }
}
