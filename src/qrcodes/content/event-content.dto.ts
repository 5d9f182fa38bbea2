import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsAfterDateTimeIn, IsIsoDateTime, OptionalText, RequiredText, inOrder } from './content-field-rules';
import { EventContent } from './event.encoder';

const MAX_DATE_TIME_LENGTH = 40;

export class EventContentDto implements EventContent {
  @ApiProperty({ description: 'Event title (SUMMARY).', maxLength: 255, example: 'Spring open day' })
  @RequiredText({ maxLength: 255 })
  title: string;

  @ApiProperty({
    description: 'Start as an ISO 8601 date-time; without an offset it is read as UTC.',
    format: 'date-time',
    example: '2025-06-01T18:00:00+02:00',
  })
  @inOrder(RequiredText({ maxLength: MAX_DATE_TIME_LENGTH }), IsIsoDateTime())
  start: string;

  @ApiPropertyOptional({
    description: 'End as an ISO 8601 date-time, after start.',
    format: 'date-time',
    example: '2025-06-01T21:00:00+02:00',
  })
  @inOrder(OptionalText({ maxLength: MAX_DATE_TIME_LENGTH }), IsIsoDateTime(), IsAfterDateTimeIn('start'))
  end?: string;

  @ApiPropertyOptional({ description: 'Where the event takes place.', maxLength: 255, example: 'Main Hall, Example Street 1, Berlin' })
  @OptionalText({ maxLength: 255 })
  location?: string;

  @ApiPropertyOptional({ description: 'Longer description; may span lines.', maxLength: 2000, example: 'Tours every hour.\nFree entry.' })
  @OptionalText({ maxLength: 2000, trim: false })
  description?: string;
}
