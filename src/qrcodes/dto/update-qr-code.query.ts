import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

/** Query of an update: how `content` is applied. A query parameter, so the body keeps the spec's fields. */
export class UpdateQrCodeQuery {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description:
      'true: the sent `content` fields are merged into the current ones (JSON Merge Patch: a field sent as null is removed, ' +
      '`address` is merged field by field) and the result is validated whole; false (default): `content` replaces the current content',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'content_merge must be "true" or "false"' })
  content_merge?: 'true' | 'false';
}
