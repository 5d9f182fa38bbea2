import { ApiProperty } from '@nestjs/swagger';
import { IsWebUrl, RequiredText, inOrder } from './content-field-rules';
import { MAX_URL_LENGTH } from './redirect-target';
import { UrlContent } from './url.encoder';

export class UrlContentDto implements UrlContent {
  @ApiProperty({
    description:
      'An absolute http or https URL without user name or password, stored as given (trimmed). ' +
      "It may not point to the service's own redirect host.",
    maxLength: MAX_URL_LENGTH,
    example: 'https://example.com/spring-sale?utm_source=qr',
  })
  @inOrder(RequiredText({ maxLength: MAX_URL_LENGTH }), IsWebUrl())
  url: string;
}
