import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Pages past this are refused: no list is that long, and OFFSET would read every row before it. */
const MAX_PAGE = 1_000_000;
export const MAX_PAGE_LIMIT = 100;

/** The `page` query parameter of a paged list (1 when absent). */
export const PageNumber = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', default: 1, minimum: 1, maximum: MAX_PAGE }),
    IsOptional(),
    Type(() => Number),
    IsInt({ message: 'page must be an integer' }),
    Min(1),
    Max(MAX_PAGE),
  );

/** The `limit` query parameter of a paged list: items per page, at most MAX_PAGE_LIMIT. */
export const PageLimit = (defaultLimit: number): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', default: defaultLimit, minimum: 1, maximum: MAX_PAGE_LIMIT }),
    IsOptional(),
    Type(() => Number),
    IsInt({ message: 'limit must be an integer' }),
    Min(1),
    Max(MAX_PAGE_LIMIT),
  );
