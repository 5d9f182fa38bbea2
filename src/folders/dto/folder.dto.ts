import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class FolderBodyDto {
  @ApiProperty({ example: 'Summer campaign', minLength: 1, maxLength: 100, pattern: '\\S', description: 'Trimmed; not blank' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;
}

/** Request examples; each is valid as it stands (a test executes them). */
export const CREATE_FOLDER_EXAMPLES: Record<string, BodyExample<FolderBodyDto>> = {
  campaign: { summary: 'A folder for a campaign', value: { name: 'Summer campaign' } },
};
export const RENAME_FOLDER_EXAMPLES: Record<string, BodyExample<FolderBodyDto>> = {
  rename: { summary: 'A new name', value: { name: 'Summer campaign 2027' } },
};

const ID = { format: 'uuid', example: '8c1d7e2a-4b6f-4f3a-9e5d-1a2b3c4d5e6f' };
const TIMESTAMP = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };

export class FolderView {
  @ApiProperty(ID) id: string;
  @ApiProperty({ example: 'Summer campaign' }) name: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Number of QR codes in the folder', example: 12 }) qr_count: number;
  @ApiProperty(TIMESTAMP) created_at: string;
  @ApiProperty(TIMESTAMP) updated_at: string;
}

export class FolderGetView extends FolderView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class FolderListView {
  @ApiProperty({ type: [FolderView] }) data: FolderView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
