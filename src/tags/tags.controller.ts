import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { CREATE_TAG_EXAMPLES, RENAME_TAG_EXAMPLES, TagBodyDto, TagDeletedView, TagGetView, TagListView, type TagView } from './dto/tag.dto';
import { TagsService } from './tags.service';

const ApiTagNameParam = () => ApiParam({ name: 'name', description: 'The tag, in any case (URL-encoded)', example: 'spring' });
const TAG_NOT_FOUND = { 404: { description: 'No tag of that name among yours', message: 'Tag not found' } } as const;
const NAME_INVALID = {
  400: { message: 'Validation failed: name must not be blank', errors: [{ field: 'name', message: 'name must not be blank' }] },
} as const;
const RESTRICTED = {
  403: {
    description: 'A folder-restricted key (a tag labels codes in every folder)',
    message: 'This API key is limited to some folders: it cannot rename tags, which label codes in every folder',
  },
} as const;

@ApiTags('tags')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'listTags', summary: 'List your tags with how many codes carry each' })
  @ApiOkResponse({ type: TagListView })
  async list(@CurrentAccount() account: AccountId): Promise<{ data: TagView[] }> {
    return { data: await this.tags.list(account) };
  }

  @Post()
  @RequiredScope('qrcodes:write')
  @ApiOperation({ operationId: 'createTag', summary: 'Create a tag (codes also create the tags they name)' })
  @ApiJsonBody(TagBodyDto, CREATE_TAG_EXAMPLES)
  @ApiCreatedResponse({ type: TagGetView, description: 'Created' })
  @ApiErrorResponses({
    ...NAME_INVALID,
    409: { description: 'A tag of that name exists', message: 'a tag named "spring" exists' },
    ...JSON_BODY_ERRORS,
  })
  create(@CurrentAccount() account: AccountId, @Body() body: TagBodyDto): Promise<TagView> {
    return this.tags.create(account, body.name);
  }

  @Patch(':name')
  @RequiredScope('qrcodes:write')
  @ApiOperation({
    operationId: 'renameTag',
    summary: 'Rename a tag; onto the name of another tag, merge the two',
    description: 'A merge moves the codes onto the tag renamed onto (a code with both keeps it once) and deletes this one; the answer is that tag.',
  })
  @ApiTagNameParam()
  @ApiJsonBody(TagBodyDto, RENAME_TAG_EXAMPLES)
  @ApiOkResponse({ type: TagGetView, description: 'The tag as it is now' })
  @ApiErrorResponses({ ...NAME_INVALID, ...RESTRICTED, ...TAG_NOT_FOUND, ...JSON_BODY_ERRORS })
  rename(@CurrentAccount() account: AccountId, @Param('name') name: string, @Body() body: TagBodyDto): Promise<TagView> {
    return this.tags.rename(account, name, body.name);
  }

  @Delete(':name')
  @RequiredScope('qrcodes:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteTag', summary: 'Delete a tag: it is taken off every code (the codes stay)' })
  @ApiTagNameParam()
  @ApiOkResponse({ type: TagDeletedView, description: 'Deleted' })
  @ApiErrorResponses({ ...RESTRICTED, ...TAG_NOT_FOUND })
  async delete(@CurrentAccount() account: AccountId, @Param('name') name: string): Promise<{ message: string; codes: number }> {
    return { message: 'Tag deleted', codes: await this.tags.delete(account, name) };
  }
}
