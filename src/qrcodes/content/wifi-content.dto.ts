import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, ValidateBy, ValidateIf } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { BlankAsAbsent, IsPresent, MaxUtf8Bytes, RequiredText, TextRules, inOrder } from './content-field-rules';
import { WIFI_ENCRYPTIONS, WifiContent, WifiEncryption } from './wifi.encoder';

/** IEEE 802.11 limits an SSID to 32 octets. */
const MAX_SSID_BYTES = 32;
/** A WPA pre-shared key is at most 63 characters, or 64 hex digits. */
const MAX_PASSWORD_LENGTH = 64;

export class WifiContentDto implements WifiContent {
  @ApiProperty({
    description: 'Network name, at most 32 bytes in UTF-8; kept exactly as given, spaces included.',
    maxLength: MAX_SSID_BYTES,
    example: 'Cafe Guest',
  })
  @inOrder(RequiredText({ maxLength: MAX_SSID_BYTES, trim: false }), MaxUtf8Bytes(MAX_SSID_BYTES))
  ssid: string;

  @ApiPropertyOptional({
    description: 'Network password; required unless encryption is nopass, and not allowed with nopass.',
    maxLength: MAX_PASSWORD_LENGTH,
    example: 'correct horse battery',
  })
  @inOrder(
    BlankAsAbsent({ trim: false }),
    ValidateIf((wifi: WifiContentDto) => wifi.encryption !== 'nopass' || wifi.password !== undefined),
    IsPresent('is required unless content.encryption is nopass'),
    TextRules(MAX_PASSWORD_LENGTH),
    IsNotSetForOpenNetwork(),
  )
  password?: string;

  @ApiProperty({
    description: 'WPA covers WPA, WPA2 and WPA3 personal; nopass is an open network.',
    enum: WIFI_ENCRYPTIONS,
    example: 'WPA',
  })
  @inOrder(IsDefined({ message: 'is required' }), IsIn(WIFI_ENCRYPTIONS, { message: `must be one of ${WIFI_ENCRYPTIONS.join(', ')}` }))
  encryption: WifiEncryption;

  @ApiPropertyOptional({ description: 'Whether the network hides its SSID.', default: false, example: false })
  @inOrder(IsOptionalNotNull(), IsBoolean({ message: 'must be a boolean' }))
  hidden?: boolean;
}

function IsNotSetForOpenNetwork(): PropertyDecorator {
  return ValidateBy({
    name: 'isNotSetForOpenNetwork',
    validator: {
      validate: (_value: unknown, args) => (args?.object as WifiContentDto).encryption !== 'nopass',
      defaultMessage: () => 'must be empty when content.encryption is nopass',
    },
  });
}
