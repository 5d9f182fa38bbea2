import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId } from '../common/ids/resource-ids';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { ApiJsonBody } from '../common/openapi/json-body';
import { folderIdPipe } from '../common/validation/resource-id.pipe';
import { CREATE_FOLDER_EXAMPLES, FolderBodyDto, FolderGetView, FolderListView, FolderView, RENAME_FOLDER_EXAMPLES } from './dto/folder.dto';
import { FoldersService } from './folders.service';

const ApiFolderIdParam = () =>
  ApiParam({ name: 'id', description: 'Id of one of your folders', format: 'uuid', example: '8c1d7e2a-4b6f-4f3a-9e5d-1a2b3c4d5e6f' });
const FOLDER_NOT_FOUND = { 404: { description: 'No such folder among yours', message: 'Folder not found' } } as const;
const FOLDER_ID_ERRORS = { 400: ID_NOT_A_UUID, ...FOLDER_NOT_FOUND } as const;
const NAME_INVALID = {
  400: { message: 'Validation failed: name should not be empty', errors: [{ field: 'name', message: 'name should not be empty' }] },
} as const;

@ApiTags('folders')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/folders')
export class FoldersController {
  constructor(private readonly folders: FoldersService) {}

  @Post()
  @RequiredScope('folders:write')
  @ApiOperation({ operationId: 'createFolder', summary: 'Create a folder' })
  @ApiJsonBody(FolderBodyDto, CREATE_FOLDER_EXAMPLES)
  @ApiCreatedResponse({ type: FolderGetView, description: 'Created' })
  @ApiErrorResponses({ ...NAME_INVALID, ...JSON_BODY_ERRORS })
  create(@CurrentAccount() account: AccountId, @Body() body: FolderBodyDto): Promise<FolderView> {
    return this.folders.create(account, body.name);
  }

  @Get()
  @RequiredScope('folders:read')
  @ApiOperation({ operationId: 'listFolders', summary: 'List your folders with their QR code counts' })
  @ApiOkResponse({ type: FolderListView, description: 'All your folders' })
  async list(@CurrentAccount() account: AccountId): Promise<{ data: FolderView[] }> {
    return { data: await this.folders.list(account) };
  }

  @Get(':id')
  @RequiredScope('folders:read')
  @ApiOperation({ operationId: 'getFolder', summary: 'Get a folder' })
  @ApiFolderIdParam()
  @ApiOkResponse({ type: FolderGetView, description: 'The folder' })
  @ApiErrorResponses(FOLDER_ID_ERRORS)
  get(@CurrentAccount() account: AccountId, @Param('id', folderIdPipe) id: FolderId): Promise<FolderView> {
    return this.folders.get(account, id);
  }

  @Put(':id')
  @RequiredScope('folders:write')
  @ApiOperation({ operationId: 'renameFolder', summary: 'Rename a folder' })
  @ApiFolderIdParam()
  @ApiJsonBody(FolderBodyDto, RENAME_FOLDER_EXAMPLES)
  @ApiOkResponse({ type: FolderGetView, description: 'The renamed folder' })
  @ApiErrorResponses({ ...NAME_INVALID, ...FOLDER_NOT_FOUND, ...JSON_BODY_ERRORS })
  rename(@CurrentAccount() account: AccountId, @Param('id', folderIdPipe) id: FolderId, @Body() body: FolderBodyDto): Promise<FolderView> {
    return this.folders.rename(account, id, body.name);
  }

  @Delete(':id')
  @RequiredScope('folders:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteFolder', summary: 'Delete a folder; its QR codes are kept and moved out of it' })
  @ApiFolderIdParam()
  @ApiOkResponse({ type: MessageView, description: 'Deleted' })
  @ApiErrorResponses(FOLDER_ID_ERRORS)
  async delete(@CurrentAccount() account: AccountId, @Param('id', folderIdPipe) id: FolderId): Promise<{ message: string }> {
    await this.folders.delete(account, id);
    return { message: 'Folder deleted' };
  }
}
