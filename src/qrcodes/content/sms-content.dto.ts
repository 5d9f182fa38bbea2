import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsWrittenPhoneNumber, OptionalText, RequiredText, inOrder } from './content-field-rules';
import { MAX_PHONE_NUMBER_LENGTH } from './phone-number';
import { SmsContent } from './sms.encoder';

export class SmsContentDto implements SmsContent {
  @ApiProperty({
    description: 'Recipient phone number; spaces, dashes, dots and parentheses are left out when encoded.',
    maxLength: MAX_PHONE_NUMBER_LENGTH,
    example: '+1 (555) 010-9999',
  })
  @inOrder(RequiredText({ maxLength: MAX_PHONE_NUMBER_LENGTH }), IsWrittenPhoneNumber())
  number: string;

  @ApiPropertyOptional({ description: 'Prefilled message text.', maxLength: 1000, example: 'JOIN SPRING' })
  @OptionalText({ maxLength: 1000, trim: false })
  message?: string;
}
