import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const IMAGE_FORMATS = ['svg'] as const;

export class ImageQuery {
  @ApiPropertyOptional({ default: 300, minimum: 100, maximum: 2000, description: 'Width and height in pixels' })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'size must be an integer' }) @Min(100) @Max(2000)
  size: number = 300;

  @ApiPropertyOptional({ enum: IMAGE_FORMATS, default: 'svg' })
  @IsOptional() @IsIn(IMAGE_FORMATS as unknown as string[], { message: 'format must be svg (the only format served)' })
  format: 'svg' = 'svg';
}
