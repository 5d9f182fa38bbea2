import { ApiProperty } from '@nestjs/swagger';
import { RequiredText } from './content-field-rules';
import { TextContent } from './text.encoder';

export class TextContentDto implements TextContent {
  @ApiProperty({
    description: 'Free text shown by the scanner app as it is; must not be blank.',
    maxLength: 2000,
    example: 'Table 12 - ask for the daily special',
  })
  @RequiredText({ maxLength: 2000, trim: false })
  text: string;
}
