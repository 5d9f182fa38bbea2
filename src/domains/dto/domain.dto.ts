import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { MAX_HOSTNAME_LENGTH } from '../hostname';
import { DOMAIN_STATUSES, type DomainStatus } from '../domain.record';

const URL_LENGTH = 2048;

export class CreateDomainDto {
  @ApiProperty({
    example: 'qr.ourbrand.com',
    maxLength: MAX_HOSTNAME_LENGTH,
    description:
      'A hostname you control: normalised to lower case, IDN labels to punycode, a trailing dot dropped. ' +
      "Refused: IP addresses, ports, schemes, single labels, underscores, this service's own hosts",
  })
  @IsDefined()
  @IsString()
  @MaxLength(MAX_HOSTNAME_LENGTH * 4)
  hostname: string;
}

export class UpdateDomainDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: URL_LENGTH,
    example: 'https://www.ourbrand.com/',
    description: 'Where `https://<hostname>/` redirects (same rules as a url target: http(s) only, not this service); null: a neutral page',
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(URL_LENGTH)
  root_redirect_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: URL_LENGTH,
    example: 'https://www.ourbrand.com/qr-help',
    description: 'Where an unknown short code on this domain redirects (same rules); null: the 404 page',
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(URL_LENGTH)
  not_found_url?: string | null;
}

export class DeleteDomainQuery {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description:
      'true: codes on the domain are moved back to the default redirect host (their printed URL changes: reprint them); ' +
      'false: the delete is refused with 409 while codes use the domain',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'force must be "true" or "false"' })
  force?: 'true' | 'false';
}

/** Request examples; each is valid as it stands (a test executes them). */
export const CREATE_DOMAIN_EXAMPLES: Record<string, BodyExample<CreateDomainDto>> = {
  subdomain: { summary: 'A subdomain of your brand', value: { hostname: 'qr.ourbrand.com' } },
};
export const UPDATE_DOMAIN_EXAMPLES: Record<string, BodyExample<UpdateDomainDto>> = {
  both: {
    summary: 'Root and not-found redirects',
    value: { root_redirect_url: 'https://www.ourbrand.com/', not_found_url: 'https://www.ourbrand.com/qr-help' },
  },
  clear: { summary: 'Back to the neutral pages', value: { root_redirect_url: null, not_found_url: null } },
};

const TIMESTAMP = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };

export class DomainVerificationView {
  @ApiProperty({ enum: ['TXT'], example: 'TXT' }) type: 'TXT';
  @ApiProperty({ example: '_qr-verify.qr.ourbrand.com', description: 'The name of the TXT record to create at your DNS provider' })
  name: string;
  @ApiProperty({ example: 'qr-verify=3fK9s8LmQ2pX7vBn4cT1wZ6yR0aHdE5j', description: 'The value the TXT record must hold' })
  value: string;
}

export class DomainView {
  @ApiProperty({ format: 'uuid', example: '5b8e0c4d-2f1a-4e3b-9c7d-6a5f4e3d2c1b' }) id: string;
  @ApiProperty({ example: 'qr.ourbrand.com' }) hostname: string;
  @ApiProperty({
    enum: DOMAIN_STATUSES,
    example: 'pending',
    description: 'pending: not yet proven; verified: proven, codes served; failing: its TXT record has been missing for 7 days (still served)',
  })
  status: DomainStatus;
  @ApiProperty({ type: DomainVerificationView }) verification: DomainVerificationView;
  @ApiProperty({ type: String, nullable: true, example: 'https://www.ourbrand.com/' }) root_redirect_url: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) not_found_url: string | null;
  @ApiProperty(TIMESTAMP) created_at: string;
  @ApiProperty({ ...TIMESTAMP, type: String, nullable: true, example: null }) verified_at: string | null;
}

export class DomainGetView extends DomainView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class DomainListView {
  @ApiProperty({ type: [DomainView] }) data: DomainView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
