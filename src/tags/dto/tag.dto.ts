import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { MAX_TAG_NAME_LENGTH } from '../tag-names';

const NAME_PROPERTY = {
  type: String,
  minLength: 1,
  maxLength: MAX_TAG_NAME_LENGTH,
  example: 'spring',
  description:
    `1 to ${MAX_TAG_NAME_LENGTH} characters, trimmed, runs of spaces as one; no control characters, "|" or ","; ` +
    'unique in your account without regard to case',
} as const;

/** The body of a tag create and rename. The name's rules are checked by the tags service (checkTagName). */
export class TagBodyDto {
  @ApiProperty(NAME_PROPERTY)
  @IsDefined()
  name: unknown;
}

/** Request examples; each is valid as it stands (a test executes them). */
export const CREATE_TAG_EXAMPLES: Record<string, BodyExample<TagBodyDto>> = {
  season: { summary: 'A tag for a season', value: { name: 'spring' } },
};
export const RENAME_TAG_EXAMPLES: Record<string, BodyExample<TagBodyDto>> = {
  rename: { summary: "A new spelling (onto another tag's name, the two are merged)", value: { name: 'Spring' } },
};

export class TagView {
  @ApiProperty({ example: 'spring', description: 'As first written; compared without regard to case' }) name: string;
  @ApiProperty({ type: 'integer', minimum: 0, example: 42, description: 'Codes carrying the tag (a folder-restricted key: those in its folders)' })
  codes: number;
}

export class TagGetView extends TagView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class TagListView {
  @ApiProperty({ type: [TagView], description: 'By name; a folder-restricted key sees only the tags on codes in its folders' }) data: TagView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class TagDeletedView {
  @ApiProperty({ example: 'Tag deleted' }) message: string;
  @ApiProperty({ type: 'integer', minimum: 0, example: 42, description: 'Codes the tag was taken off' }) codes: number;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
