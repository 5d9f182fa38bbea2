import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { MAX_HOSTNAME_LENGTH } from '../hostname';
import { DOMAIN_STATUSES, type DomainStatus } from '../domain.record';
import { ANDROID_PACKAGE, APPLE_APP_ID, APPLE_PATH, type AppLinks, DEFAULT_APP_PATHS, SHA256_FINGERPRINT } from '../app-links';

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

export class AppleAppLinksDto {
  @ApiProperty({
    type: [String],
    example: ['ABCDE12345.com.ourbrand.app'],
    description: 'App IDs: the 10-character Team ID, a dot, the bundle id (1 to 20)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @Matches(APPLE_APP_ID, { each: true, message: 'each of app_ids must be a Team ID, a dot and a bundle id, e.g. ABCDE12345.com.ourbrand.app' })
  app_ids: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['/r/*'],
    description: `Path patterns the app opens (\`*\`, \`?\`; \`NOT \` in front excludes). Default: ${DEFAULT_APP_PATHS.join(', ')}`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @MaxLength(200, { each: true })
  @Matches(APPLE_PATH, { each: true, message: 'each of paths must start with / (or NOT /) and hold printable characters only' })
  paths?: string[];
}

export class AndroidAppLinksDto {
  @ApiProperty({ example: 'com.ourbrand.app', description: "The app's package name" })
  @IsString()
  @MaxLength(255)
  @Matches(ANDROID_PACKAGE, { message: 'package_name must be a package name such as com.ourbrand.app' })
  package_name: string;

  @ApiProperty({
    type: [String],
    example: ['14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5'],
    description: "SHA-256 fingerprints of the app's signing certificates, as keytool prints them (1 to 10)",
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @Matches(SHA256_FINGERPRINT, { each: true, message: 'each of sha256_cert_fingerprints must be 32 colon-separated hex pairs' })
  sha256_cert_fingerprints: string[];
}

export class AppLinksDto implements AppLinks {
  @ApiPropertyOptional({ type: () => AppleAppLinksDto, description: 'iOS: served as /.well-known/apple-app-site-association' })
  @IsOptional()
  @IsObject({ message: 'apple must be an object' })
  @ValidateNested()
  @Type(() => AppleAppLinksDto)
  apple?: AppleAppLinksDto;

  @ApiPropertyOptional({ type: () => AndroidAppLinksDto, description: 'Android: served as /.well-known/assetlinks.json' })
  @IsOptional()
  @IsObject({ message: 'android must be an object' })
  @ValidateNested()
  @Type(() => AndroidAppLinksDto)
  android?: AndroidAppLinksDto;
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

  @ApiPropertyOptional({
    type: () => AppLinksDto,
    nullable: true,
    description: "Apps that open this domain's links where they are installed (docs/sharing.md#app-links-on-branded-domains); null: none",
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsObject({ message: 'app_links must be an object' })
  @ValidateNested()
  @Type(() => AppLinksDto)
  app_links?: AppLinksDto | null;
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
  apps: {
    summary: "Open the brand's apps from its codes",
    value: {
      app_links: {
        apple: { app_ids: ['ABCDE12345.com.ourbrand.app'] },
        android: {
          package_name: 'com.ourbrand.app',
          sha256_cert_fingerprints: ['14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5'],
        },
      },
    },
  },
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
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: null,
    description: 'The apps set with PUT /api/v1/domains/{id} (`apple`, `android`, as in its request body); null: none',
  })
  app_links: AppLinks | null;
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
