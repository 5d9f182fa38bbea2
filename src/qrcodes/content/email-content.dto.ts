import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail } from 'class-validator';
import { IsSingleLine, OptionalText, RequiredText, inOrder } from './content-field-rules';
import { EmailContent } from './email.encoder';

export class EmailContentDto implements EmailContent {
  @ApiProperty({ description: 'Recipient email address.', maxLength: 254, example: 'hello@example.com' })
  @inOrder(RequiredText({ maxLength: 254 }), IsEmail({}, { message: 'must be an email address' }))
  to: string;

  @ApiPropertyOptional({ description: 'Subject line, a single line.', maxLength: 255, example: 'Question about my order' })
  @inOrder(OptionalText({ maxLength: 255 }), IsSingleLine())
  subject?: string;

  @ApiPropertyOptional({ description: 'Message body; may span lines.', maxLength: 2000, example: 'Hello,\nmy order number is 1234.' })
  @OptionalText({ maxLength: 2000, trim: false })
  body?: string;
}
