import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId, ShareLinkId } from '../common/ids/resource-ids';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { folderIdPipe, qrCodeIdPipe, shareLinkIdPipe } from '../common/validation/resource-id.pipe';
import { CREATE_SHARE_LINK_EXAMPLES, CreateShareLinkDto, ShareLinkGetView, ShareLinkListView, type ShareLinkView } from './dto/share-link.dto';
import { ShareLinksService } from './share-links.service';

const idParam = (what: string, name = 'id') => ApiParam({ name, format: 'uuid', description: what });
const CODE_ID = idParam('Id of one of your QR codes (the `id` of a create answer or of GET /api/v1/qrcodes)');
const FOLDER_ID = idParam('Id of one of your folders (the `id` of a create answer or of GET /api/v1/folders)');
const TAG_NAME = ApiParam({
  name: 'name',
  description: 'One of your tags, in any case (URL-encoded; GET /api/v1/tags lists them)',
  example: 'spring',
});
const TAG_NOT_FOUND = { description: 'No such tag among yours (for a folder-restricted key: on its codes)', message: 'Tag not found' };
const CREATE_ERRORS = {
  400: {
    message: 'Validation failed: expires_at must be in the future',
    errors: [{ field: 'expires_at', message: 'expires_at must be in the future' }],
  },
  ...JSON_BODY_ERRORS,
} as const;

@ApiTags('sharing')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1')
export class ShareLinksController {
  constructor(private readonly shareLinks: ShareLinksService) {}

  @Post('qrcodes/:id/share-links')
  @RequiredScope('analytics:write')
  @ApiOperation({ operationId: 'createCodeShareLink', summary: "Share a code's statistics as a read-only public page" })
  @CODE_ID
  @ApiJsonBody(CreateShareLinkDto, CREATE_SHARE_LINK_EXAMPLES)
  @ApiCreatedResponse({ type: ShareLinkGetView, description: 'The link (its url is the page)' })
  @ApiErrorResponses({ ...CREATE_ERRORS, 404: { description: 'No such code among yours', message: 'QR code not found' } })
  createForCode(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeIdPipe) id: QrCodeId,
    @Body() body: CreateShareLinkDto,
  ): Promise<ShareLinkView> {
    return this.shareLinks.createForCode(account, id, body);
  }

  @Get('qrcodes/:id/share-links')
  @RequiredScope('analytics:read')
  @ApiOperation({ operationId: 'listCodeShareLinks', summary: "A code's share links, revoked ones included" })
  @CODE_ID
  @ApiOkResponse({ type: ShareLinkListView, description: 'Newest first' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, 404: { description: 'No such code among yours', message: 'QR code not found' } })
  async listForCode(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId): Promise<{ data: ShareLinkView[] }> {
    return { data: await this.shareLinks.listForCode(account, id) };
  }

  @Post('folders/:id/share-links')
  @RequiredScope('analytics:write')
  @ApiOperation({ operationId: 'createFolderShareLink', summary: "Share a folder's statistics (all its codes) as a read-only public page" })
  @FOLDER_ID
  @ApiJsonBody(CreateShareLinkDto, CREATE_SHARE_LINK_EXAMPLES)
  @ApiCreatedResponse({ type: ShareLinkGetView, description: 'The link (its url is the page)' })
  @ApiErrorResponses({ ...CREATE_ERRORS, 404: { description: 'No such folder among yours', message: 'Folder not found' } })
  createForFolder(
    @CurrentAccount() account: AccountId,
    @Param('id', folderIdPipe) id: FolderId,
    @Body() body: CreateShareLinkDto,
  ): Promise<ShareLinkView> {
    return this.shareLinks.createForFolder(account, id, body);
  }

  @Get('folders/:id/share-links')
  @RequiredScope('analytics:read')
  @ApiOperation({ operationId: 'listFolderShareLinks', summary: "A folder's share links, revoked ones included" })
  @FOLDER_ID
  @ApiOkResponse({ type: ShareLinkListView, description: 'Newest first' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, 404: { description: 'No such folder among yours', message: 'Folder not found' } })
  async listForFolder(@CurrentAccount() account: AccountId, @Param('id', folderIdPipe) id: FolderId): Promise<{ data: ShareLinkView[] }> {
    return { data: await this.shareLinks.listForFolder(account, id) };
  }

  @Post('tags/:name/share-links')
  @RequiredScope('analytics:write')
  @ApiOperation({
    operationId: 'createTagShareLink',
    summary: "Share a tag's statistics (every code carrying it) as a read-only public page",
    description:
      'A folder-restricted key may not: the page counts codes in every folder (403). ' +
      'Deleting the tag, or merging it into another, deletes its links.',
  })
  @TAG_NAME
  @ApiJsonBody(CreateShareLinkDto, CREATE_SHARE_LINK_EXAMPLES)
  @ApiCreatedResponse({ type: ShareLinkGetView, description: 'The link (its url is the page)' })
  @ApiErrorResponses({
    ...CREATE_ERRORS,
    403: {
      description: 'A folder-restricted key (the page counts codes in every folder)',
      message: "This API key is limited to some folders: it cannot share a tag's statistics, which count codes in every folder",
    },
    404: TAG_NOT_FOUND,
  })
  createForTag(@CurrentAccount() account: AccountId, @Param('name') name: string, @Body() body: CreateShareLinkDto): Promise<ShareLinkView> {
    return this.shareLinks.createForTag(account, name, body);
  }

  @Get('tags/:name/share-links')
  @RequiredScope('analytics:read')
  @ApiOperation({ operationId: 'listTagShareLinks', summary: "A tag's share links, revoked ones included" })
  @TAG_NAME
  @ApiOkResponse({ type: ShareLinkListView, description: 'Newest first' })
  @ApiErrorResponses({ 404: TAG_NOT_FOUND })
  async listForTag(@CurrentAccount() account: AccountId, @Param('name') name: string): Promise<{ data: ShareLinkView[] }> {
    return { data: await this.shareLinks.listForTag(account, name) };
  }

  @Delete('share-links/:token_id')
  @RequiredScope('analytics:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'revokeShareLink', summary: 'Revoke a share link: its page answers 404 at once' })
  @idParam('The `token_id` of a share link (from its create answer or a list of share links)', 'token_id')
  @ApiOkResponse({ type: MessageView, description: 'Revoked' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, 404: { description: 'No such share link among yours', message: 'Share link not found' } })
  async revoke(@CurrentAccount() account: AccountId, @Param('token_id', shareLinkIdPipe) id: ShareLinkId): Promise<{ message: string }> {
    await this.shareLinks.revoke(account, id);
    return { message: 'Share link revoked' };
  }
}
