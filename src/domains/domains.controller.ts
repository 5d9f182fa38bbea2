import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { DomainId } from '../common/ids/resource-ids';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { domainIdPipe } from '../common/validation/resource-id.pipe';
import { DomainsService } from './domains.service';
import {
  CREATE_DOMAIN_EXAMPLES,
  CreateDomainDto,
  DeleteDomainQuery,
  DomainGetView,
  DomainListView,
  type DomainView,
  UPDATE_DOMAIN_EXAMPLES,
  UpdateDomainDto,
} from './dto/domain.dto';

const ApiDomainIdParam = () =>
  ApiParam({ name: 'id', description: 'Id of one of your domains', format: 'uuid', example: '5b8e0c4d-2f1a-4e3b-9c7d-6a5f4e3d2c1b' });
const DOMAIN_NOT_FOUND = { 404: { description: 'No such domain among yours', message: 'Domain not found' } } as const;
const DOMAIN_ID_ERRORS = { 400: ID_NOT_A_UUID, ...DOMAIN_NOT_FOUND } as const;
const HOSTNAME_TAKEN = {
  409: {
    description: 'The hostname is verified by another account, or already one of yours',
    message: 'hostname is verified by another account',
    errors: [{ field: 'hostname', message: 'hostname is verified by another account' }],
  },
} as const;

@ApiTags('domains')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Post()
  @RequiredScope('domains:write')
  @ApiOperation({
    operationId: 'createDomain',
    summary: 'Add a domain of yours for short links; then create the TXT record it names and verify it',
  })
  @ApiJsonBody(CreateDomainDto, CREATE_DOMAIN_EXAMPLES)
  @ApiCreatedResponse({ type: DomainGetView, description: 'Added, pending verification' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: hostname must be a name, not an IP address',
      errors: [{ field: 'hostname', message: 'hostname must be a name, not an IP address' }],
    },
    ...HOSTNAME_TAKEN,
    ...JSON_BODY_ERRORS,
  })
  create(@CurrentAccount() account: AccountId, @Body() body: CreateDomainDto): Promise<DomainView> {
    return this.domains.create(account, body.hostname);
  }

  @Get()
  @RequiredScope('domains:read')
  @ApiOperation({ operationId: 'listDomains', summary: 'List your domains' })
  @ApiOkResponse({ type: DomainListView, description: 'All your domains, by hostname' })
  async list(@CurrentAccount() account: AccountId): Promise<{ data: DomainView[] }> {
    return { data: await this.domains.list(account) };
  }

  @Get(':id')
  @RequiredScope('domains:read')
  @ApiOperation({ operationId: 'getDomain', summary: 'Get a domain' })
  @ApiDomainIdParam()
  @ApiOkResponse({ type: DomainGetView, description: 'The domain' })
  @ApiErrorResponses(DOMAIN_ID_ERRORS)
  get(@CurrentAccount() account: AccountId, @Param('id', domainIdPipe) id: DomainId): Promise<DomainView> {
    return this.domains.get(account, id);
  }

  @Put(':id')
  @RequiredScope('domains:write')
  @ApiOperation({ operationId: 'updateDomain', summary: "Set the domain's root and not-found redirects" })
  @ApiDomainIdParam()
  @ApiJsonBody(UpdateDomainDto, UPDATE_DOMAIN_EXAMPLES)
  @ApiOkResponse({ type: DomainGetView, description: 'The domain as it is now' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: root_redirect_url must be an absolute http or https URL with a valid host',
      errors: [{ field: 'root_redirect_url', message: 'root_redirect_url must be an absolute http or https URL with a valid host' }],
    },
    ...DOMAIN_NOT_FOUND,
    ...JSON_BODY_ERRORS,
  })
  update(@CurrentAccount() account: AccountId, @Param('id', domainIdPipe) id: DomainId, @Body() body: UpdateDomainDto): Promise<DomainView> {
    return this.domains.update(account, id, body);
  }

  @Post(':id/verify')
  @RequiredScope('domains:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'verifyDomain',
    summary: 'Look the TXT record up now: verified when it holds the token, else 400 saying what was found',
  })
  @ApiDomainIdParam()
  @ApiOkResponse({ type: DomainGetView, description: 'Verified' })
  @ApiErrorResponses({
    400: {
      description: 'The TXT record is missing or holds other values (named), or the lookup failed; or the id is not a UUID',
      message: 'Validation failed: no TXT record found at _qr-verify.qr.ourbrand.com; create one holding qr-verify=3fK9s8LmQ2pX7vBn4cT1wZ6yR0aHdE5j',
      errors: [
        {
          field: 'verification',
          message: 'no TXT record found at _qr-verify.qr.ourbrand.com; create one holding qr-verify=3fK9s8LmQ2pX7vBn4cT1wZ6yR0aHdE5j',
        },
      ],
    },
    ...DOMAIN_NOT_FOUND,
    ...HOSTNAME_TAKEN,
  })
  verify(@CurrentAccount() account: AccountId, @Param('id', domainIdPipe) id: DomainId): Promise<DomainView> {
    return this.domains.verify(account, id);
  }

  @Delete(':id')
  @RequiredScope('domains:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteDomain',
    summary: 'Delete a domain; refused while codes use it unless ?force=true moves them to the default redirect host',
  })
  @ApiDomainIdParam()
  @ApiOkResponse({ type: MessageView, description: 'Deleted' })
  @ApiErrorResponses({
    ...DOMAIN_ID_ERRORS,
    409: {
      description: 'QR codes use the domain (and force is not true)',
      message:
        '2 QR code(s) use this domain: move them first, or delete with ?force=true to move them back to the default redirect host ' +
        '(their printed URL changes)',
    },
  })
  async delete(
    @CurrentAccount() account: AccountId,
    @Param('id', domainIdPipe) id: DomainId,
    @Query() query: DeleteDomainQuery,
  ): Promise<{ message: string }> {
    await this.domains.delete(account, id, query.force === 'true');
    return { message: 'Domain deleted' };
  }
}
