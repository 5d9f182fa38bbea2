import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { ImageLinkId, QrCodeId } from '../common/ids/resource-ids';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { imageLinkIdPipe, qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { restrictedFolders } from '../infra/http/request-context';
import {
  CREATE_IMAGE_LINK_EXAMPLES,
  CreateImageLinkDto,
  ImageLinkGetView,
  ImageLinkListView,
  type ImageLinkView,
  RotatedImageLinksView,
} from './dto/image-link.dto';
import { ImageLinksService } from './image-links.service';

const CODE_ID = ApiParam({
  name: 'id',
  format: 'uuid',
  description: 'Id of one of your QR codes (the `id` of a create answer or of GET /api/v1/qrcodes)',
});
const CODE_NOT_FOUND = { 404: { description: 'No such code among yours', message: 'QR code not found' } } as const;

@ApiTags('sharing')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1')
export class ImageLinksController {
  constructor(private readonly imageLinks: ImageLinksService) {}

  @Post('qrcodes/:id/image-links')
  @RequiredScope('qrcodes:write')
  @ApiOperation({ operationId: 'createImageLink', summary: "A public URL of the code's image, for <img src> (no key needed)" })
  @CODE_ID
  @ApiJsonBody(CreateImageLinkDto, CREATE_IMAGE_LINK_EXAMPLES)
  @ApiCreatedResponse({ type: ImageLinkGetView, description: 'The link; its url serves the image' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: size must not be greater than 2000',
      errors: [{ field: 'size', message: 'size must not be greater than 2000' }],
    },
    ...CODE_NOT_FOUND,
    ...JSON_BODY_ERRORS,
  })
  create(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId, @Body() body: CreateImageLinkDto): Promise<ImageLinkView> {
    return this.imageLinks.create(account, id, body);
  }

  @Get('qrcodes/:id/image-links')
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'listImageLinks', summary: "A code's image links, revoked ones included" })
  @CODE_ID
  @ApiOkResponse({ type: ImageLinkListView, description: 'Newest first' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, ...CODE_NOT_FOUND })
  async list(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId): Promise<{ data: ImageLinkView[] }> {
    return { data: await this.imageLinks.list(account, id) };
  }

  @Delete('image-links/:id')
  @RequiredScope('qrcodes:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'revokeImageLink', summary: 'Revoke an image link: its URL answers 410 at once' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The `id` of an image link (from its create answer or a list of image links)' })
  @ApiOkResponse({ type: MessageView, description: 'Revoked' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, 404: { description: 'No such image link among yours', message: 'Image link not found' } })
  async revoke(@CurrentAccount() account: AccountId, @Param('id', imageLinkIdPipe) id: ImageLinkId): Promise<{ message: string }> {
    await this.imageLinks.revoke(account, id);
    return { message: 'Image link revoked' };
  }

  @Post('image-links/rotate-secret')
  @RequiredScope('qrcodes:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateImageLinkSecret',
    summary: "Replace the account's image-link secret: every image link answers 410 from now on",
  })
  @ApiOkResponse({ type: RotatedImageLinksView, description: 'Rotated' })
  @ApiErrorResponses({
    403: { description: 'A key limited to some folders cannot revoke the links of every code', message: 'This API key is limited to some folders' },
  })
  async rotate(@CurrentAccount() account: AccountId): Promise<{ revoked: number }> {
    if (restrictedFolders(account))
      throw new ForbiddenException('This API key is limited to some folders: it cannot rotate the secret of every image link');
    return { revoked: await this.imageLinks.rotateSecret(account) };
  }
}
