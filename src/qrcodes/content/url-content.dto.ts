import { ApiProperty } from '@nestjs/swagger';
import { IsWebUrl, RequiredText, inOrder } from './content-field-rules';
import { MAX_URL_LENGTH } from '../../common/web/redirect-target';
import { UrlContent } from './url.encoder';

export class UrlContentDto implements UrlContent {
  @ApiProperty({
    description:
      'An absolute http or https URL without user name or password. It is stored, and redirected to, in its ' +
      'normal form (WHATWG URL serialisation: punycode host, percent-encoded path and query). ' +
      "It may not point to the service's own links (any alias of its redirect host).",
    maxLength: MAX_URL_LENGTH,
    example: 'https://example.com/spring-sale?utm_source=qr',
  })
  @inOrder(RequiredText({ maxLength: MAX_URL_LENGTH, trim: false }), IsWebUrl())
  url: string;
}
