import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../../common/auth/current-account.decorator';
import { RequiredScope } from '../../common/auth/required-scope.decorator';
import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { MessageView } from '../../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../../common/openapi/error-responses';
import { ApiJsonBody } from '../../common/openapi/json-body';
import { API_KEY_SCHEME } from '../../common/openapi/security-schemes';
import { gs1ItemIdPipe } from '../../common/validation/resource-id.pipe';
import {
  CREATE_GS1_ITEM_EXAMPLES,
  Gs1ItemBodyDto,
  Gs1ItemGetView,
  Gs1ItemListView,
  Gs1ItemUpdateDto,
  type Gs1ItemView,
  ListGs1ItemsQuery,
  UPDATE_GS1_ITEM_EXAMPLES,
} from './dto/gs1-item.dto';
import { Gs1ItemsService } from './gs1-items.service';

const ApiItemIdParam = () =>
  ApiParam({ name: 'id', description: 'Id of one of your GS1 items', format: 'uuid', example: '0b7e4f3a-2c1d-4e5f-8a9b-1c2d3e4f5a6b' });
const ITEM_NOT_FOUND = { 404: { description: 'No such GS1 item among yours', message: 'GS1 item not found' } } as const;
const PATH_INVALID = {
  400: {
    message: 'Validation failed: path is not a GS1 Digital Link key path: (01) GTIN: the check digit of 09506000134353 is wrong',
    errors: [{ field: 'path', message: 'path is not a GS1 Digital Link key path: (01) GTIN: the check digit of 09506000134353 is wrong' }],
  },
} as const;

@ApiTags('gs1')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/gs1/items')
export class Gs1ItemsController {
  constructor(private readonly items: Gs1ItemsService) {}

  @Post()
  @RequiredScope('gs1:write')
  @ApiOperation({ operationId: 'createGs1Item', summary: 'Create a GS1 Digital Link item (a GTIN, lot, serial, SSCC, GLN, …) and its links' })
  @ApiJsonBody(Gs1ItemBodyDto, CREATE_GS1_ITEM_EXAMPLES)
  @ApiCreatedResponse({ type: Gs1ItemGetView, description: 'Created' })
  @ApiErrorResponses({
    ...PATH_INVALID,
    409: { description: 'Another item holds this path on this host', message: 'path is already an item on this host' },
    ...JSON_BODY_ERRORS,
  })
  create(@CurrentAccount() account: AccountId, @Body() body: Gs1ItemBodyDto): Promise<Gs1ItemView> {
    return this.items.create(account, body);
  }

  @Get()
  @RequiredScope('gs1:read')
  @ApiOperation({ operationId: 'listGs1Items', summary: 'List your GS1 items, newest first' })
  @ApiOkResponse({ type: Gs1ItemListView, description: 'One page of your items' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: limit must not be greater than 100',
      errors: [{ field: 'limit', message: 'limit must not be greater than 100' }],
    },
  })
  list(@CurrentAccount() account: AccountId, @Query() query: ListGs1ItemsQuery) {
    return this.items.list(account, query);
  }

  @Get(':id')
  @RequiredScope('gs1:read')
  @ApiOperation({ operationId: 'getGs1Item', summary: 'Get a GS1 item' })
  @ApiItemIdParam()
  @ApiOkResponse({ type: Gs1ItemGetView, description: 'The item' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, ...ITEM_NOT_FOUND })
  get(@CurrentAccount() account: AccountId, @Param('id', gs1ItemIdPipe) id: Gs1ItemId): Promise<Gs1ItemView> {
    return this.items.get(account, id);
  }

  @Put(':id')
  @RequiredScope('gs1:write')
  @ApiOperation({ operationId: 'updateGs1Item', summary: 'Update a GS1 item’s name or links (links are replaced as a whole)' })
  @ApiItemIdParam()
  @ApiJsonBody(Gs1ItemUpdateDto, UPDATE_GS1_ITEM_EXAMPLES)
  @ApiOkResponse({ type: Gs1ItemGetView, description: 'The updated item' })
  @ApiErrorResponses({
    ...ITEM_NOT_FOUND,
    ...JSON_BODY_ERRORS,
    400: {
      message: 'Validation failed: links must have exactly one link with default: true (found 0)',
      errors: [{ field: 'links', message: 'links must have exactly one link with default: true (found 0)' }],
    },
  })
  update(@CurrentAccount() account: AccountId, @Param('id', gs1ItemIdPipe) id: Gs1ItemId, @Body() body: Gs1ItemUpdateDto): Promise<Gs1ItemView> {
    return this.items.update(account, id, body);
  }

  @Delete(':id')
  @RequiredScope('gs1:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteGs1Item', summary: 'Delete a GS1 item; its URI answers 404 (or its parent’s links) from then on' })
  @ApiItemIdParam()
  @ApiOkResponse({ type: MessageView, description: 'Deleted' })
  @ApiErrorResponses({ 400: ID_NOT_A_UUID, ...ITEM_NOT_FOUND })
  async delete(@CurrentAccount() account: AccountId, @Param('id', gs1ItemIdPipe) id: Gs1ItemId): Promise<{ message: string }> {
    await this.items.delete(account, id);
    return { message: 'GS1 item deleted' };
  }
}
