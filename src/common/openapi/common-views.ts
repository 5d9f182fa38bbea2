import { ApiProperty } from '@nestjs/swagger';

/** `request_id` of every JSON body, as the OpenAPI document describes it. */
export const REQUEST_ID_PROPERTY = {
  description: 'Id of this request, also in the X-Request-Id header; quote it when reporting a problem',
  example: '5f0c7a5e-3b7e-4f8e-9d4a-2c1b0a9e8d7c',
};

/** The page of a paged list, and how many pages there are. */
export class PaginationView {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 }) page: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 }) limit: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Number of matching items', example: 42 }) total: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 3 }) total_pages: number;
}

/** The body of an update or delete that has nothing else to return. */
export class MessageView {
  @ApiProperty({ example: 'QR code updated' }) message: string;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
