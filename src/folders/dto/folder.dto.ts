import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class FolderBodyDto {
  @ApiProperty({ example: 'Summer campaign', minLength: 1, maxLength: 100 })
  @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(100)
  name: string;
}

export class FolderView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Number of QR codes in the folder' }) qr_count: number;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}
