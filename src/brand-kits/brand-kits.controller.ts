import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { BrandKitId } from '../common/ids/resource-ids';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { brandKitIdPipe } from '../common/validation/resource-id.pipe';
import { BrandKitsService } from './brand-kits.service';
import {
  BrandKitBodyDto,
  BrandKitGetView,
  BrandKitListView,
  BrandKitPatchDto,
  type BrandKitView,
  CREATE_BRAND_KIT_EXAMPLES,
  PATCH_BRAND_KIT_EXAMPLES,
} from './dto/brand-kit.dto';

const ApiKitIdParam = () =>
  ApiParam({ name: 'id', format: 'uuid', description: 'One of your brand kits', example: '2f6b9c1e-8d3a-4e5f-9a7b-1c2d3e4f5a6b' });
const KIT_NOT_FOUND = { 404: { description: 'No such brand kit among yours', message: 'Brand kit not found' } } as const;
const KIT_REFUSED = {
  400: {
    description: 'A kit that does not scan (the style check), a frame or logo inside style, a domain that is not yours',
    message: 'Validation failed: style: the dots (#eeeeee) do not contrast enough with the background (#ffffff)',
    errors: [{ field: 'style.dotsOptions.color', message: 'style: the dots (#eeeeee) do not contrast enough with the background (#ffffff)' }],
  },
} as const;
const RESTRICTED = {
  403: {
    description: 'A folder-restricted key (kits draw codes in every folder)',
    message: 'This API key is limited to some folders: it cannot change brand kits, which draw codes in every folder',
  },
} as const;

@ApiTags('brand-kits')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/brand-kits')
export class BrandKitsController {
  constructor(private readonly kits: BrandKitsService) {}

  @Post()
  @RequiredScope('qrcodes:write')
  @ApiOperation({ operationId: 'createBrandKit', summary: 'Create a brand kit: a style, frame and logo codes are drawn with' })
  @ApiJsonBody(BrandKitBodyDto, CREATE_BRAND_KIT_EXAMPLES)
  @ApiCreatedResponse({ type: BrandKitGetView, description: 'Created' })
  @ApiErrorResponses({ ...KIT_REFUSED, ...RESTRICTED, ...JSON_BODY_ERRORS })
  create(@CurrentAccount() account: AccountId, @Body() body: BrandKitBodyDto): Promise<BrandKitView> {
    return this.kits.create(account, body);
  }

  @Get()
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'listBrandKits', summary: 'List your brand kits' })
  @ApiOkResponse({ type: BrandKitListView })
  async list(@CurrentAccount() account: AccountId): Promise<{ data: BrandKitView[] }> {
    return { data: await this.kits.list(account) };
  }

  @Get(':id')
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'getBrandKit', summary: 'Get a brand kit' })
  @ApiKitIdParam()
  @ApiOkResponse({ type: BrandKitGetView })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, ...KIT_NOT_FOUND })
  get(@CurrentAccount() account: AccountId, @Param('id', brandKitIdPipe) id: BrandKitId): Promise<BrandKitView> {
    return this.kits.get(account, id);
  }

  @Put(':id')
  @RequiredScope('qrcodes:write')
  @ApiOperation({ operationId: 'replaceBrandKit', summary: 'Replace a brand kit (fields left out take their defaults); its codes are drawn anew' })
  @ApiKitIdParam()
  @ApiJsonBody(BrandKitBodyDto, CREATE_BRAND_KIT_EXAMPLES)
  @ApiOkResponse({ type: BrandKitGetView, description: 'The kit as it is now' })
  @ApiErrorResponses({ ...KIT_REFUSED, ...RESTRICTED, ...KIT_NOT_FOUND, ...JSON_BODY_ERRORS })
  replace(@CurrentAccount() account: AccountId, @Param('id', brandKitIdPipe) id: BrandKitId, @Body() body: BrandKitBodyDto): Promise<BrandKitView> {
    return this.kits.replace(account, id, body);
  }

  @Patch(':id')
  @RequiredScope('qrcodes:write')
  @ApiOperation({ operationId: 'updateBrandKit', summary: 'Change some fields of a brand kit; its codes are drawn anew' })
  @ApiKitIdParam()
  @ApiJsonBody(BrandKitPatchDto, PATCH_BRAND_KIT_EXAMPLES)
  @ApiOkResponse({ type: BrandKitGetView, description: 'The kit as it is now' })
  @ApiErrorResponses({ ...KIT_REFUSED, ...RESTRICTED, ...KIT_NOT_FOUND, ...JSON_BODY_ERRORS })
  update(@CurrentAccount() account: AccountId, @Param('id', brandKitIdPipe) id: BrandKitId, @Body() body: BrandKitPatchDto): Promise<BrandKitView> {
    return this.kits.update(account, id, body);
  }

  @Delete(':id')
  @RequiredScope('qrcodes:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteBrandKit', summary: 'Delete a brand kit; its codes keep their own style' })
  @ApiKitIdParam()
  @ApiOkResponse({ type: MessageView, description: 'Deleted' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, ...RESTRICTED, ...KIT_NOT_FOUND })
  async delete(@CurrentAccount() account: AccountId, @Param('id', brandKitIdPipe) id: BrandKitId): Promise<{ message: string }> {
    await this.kits.delete(account, id);
    return { message: 'Brand kit deleted' };
  }
}
