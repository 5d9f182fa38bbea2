import { ApiProperty } from '@nestjs/swagger';
import { IsWrittenPhoneNumber, RequiredText, inOrder } from './content-field-rules';
import { PhoneContent } from './phone.encoder';
import { MAX_PHONE_NUMBER_LENGTH } from './phone-number';

export class PhoneContentDto implements PhoneContent {
  @ApiProperty({
    description:
      'Phone number, preferably international (E.164) with a leading +. Spaces, dashes, dots and ' +
      'parentheses are allowed and left out of the encoded tel: URI.',
    maxLength: MAX_PHONE_NUMBER_LENGTH,
    example: '+49 30 1234567',
  })
  @inOrder(RequiredText({ maxLength: MAX_PHONE_NUMBER_LENGTH }), IsWrittenPhoneNumber())
  number: string;
}
