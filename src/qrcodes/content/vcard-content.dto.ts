import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsObject, ValidateNested } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { IsWebUrl, IsWrittenPhoneNumber, OptionalText, RequiredTextUnlessPresent, inOrder } from './content-field-rules';
import { MAX_PHONE_NUMBER_LENGTH } from './phone-number';
import { MAX_URL_LENGTH } from '../../common/web/redirect-target';
import { VcardAddress, VcardContent } from './vcard.encoder';

export class VcardAddressDto implements VcardAddress {
  @ApiPropertyOptional({ description: 'Street and house number.', maxLength: 200, example: 'Example Street 1' })
  @OptionalText({ maxLength: 200 })
  street?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'City.', example: 'Berlin' })
  @OptionalText({ maxLength: 100 })
  city?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Region, state or province.', example: 'Berlin' })
  @OptionalText({ maxLength: 100 })
  region?: string;

  @ApiPropertyOptional({ maxLength: 20, description: 'Postal code.', example: '10115' })
  @OptionalText({ maxLength: 20 })
  postcode?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Country.', example: 'Germany' })
  @OptionalText({ maxLength: 100 })
  country?: string;
}

export class VcardContentDto implements VcardContent {
  @ApiPropertyOptional({ description: 'Given name; first_name or last_name is required.', maxLength: 100, example: 'Ada' })
  @RequiredTextUnlessPresent('last_name', { maxLength: 100 })
  first_name?: string;

  @ApiPropertyOptional({ description: 'Family name; first_name or last_name is required.', maxLength: 100, example: 'Lovelace' })
  @OptionalText({ maxLength: 100 })
  last_name?: string;

  @ApiPropertyOptional({ description: 'Company or organisation.', maxLength: 200, example: 'Analytical Engines Ltd' })
  @OptionalText({ maxLength: 200 })
  organization?: string;

  @ApiPropertyOptional({ description: 'Job title.', maxLength: 100, example: 'Chief Mathematician' })
  @OptionalText({ maxLength: 100 })
  title?: string;

  @ApiPropertyOptional({ description: 'Work or landline number.', maxLength: MAX_PHONE_NUMBER_LENGTH, example: '+44 20 7946 0000' })
  @inOrder(OptionalText({ maxLength: MAX_PHONE_NUMBER_LENGTH }), IsWrittenPhoneNumber())
  phone?: string;

  @ApiPropertyOptional({ description: 'Mobile number.', maxLength: MAX_PHONE_NUMBER_LENGTH, example: '+44 7700 900000' })
  @inOrder(OptionalText({ maxLength: MAX_PHONE_NUMBER_LENGTH }), IsWrittenPhoneNumber())
  mobile?: string;

  @ApiPropertyOptional({ description: 'Email address.', maxLength: 254, example: 'ada@example.com' })
  @inOrder(OptionalText({ maxLength: 254 }), IsEmail({}, { message: 'must be an email address' }))
  email?: string;

  @ApiPropertyOptional({ description: 'Website, an http or https URL.', maxLength: MAX_URL_LENGTH, example: 'https://example.com' })
  @inOrder(OptionalText({ maxLength: MAX_URL_LENGTH }), IsWebUrl())
  website?: string;

  @ApiPropertyOptional({ description: 'Postal address; every part is optional.', type: () => VcardAddressDto })
  @inOrder(IsOptionalNotNull(), IsObject({ message: 'must be an object' }), ValidateNested(), Type(() => VcardAddressDto))
  address?: VcardAddressDto;

  @ApiPropertyOptional({ description: 'Free-text note; may span lines.', maxLength: 2000, example: 'Met at the spring fair.' })
  @OptionalText({ maxLength: 2000, trim: false })
  note?: string;
}
