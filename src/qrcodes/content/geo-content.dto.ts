import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsNumber, Max, Min } from 'class-validator';
import { inOrder } from './content-field-rules';
import { GeoContent } from './geo.encoder';

function Degrees(limit: number): PropertyDecorator {
  return inOrder(
    IsDefined({ message: 'is required' }),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' }),
    Min(-limit, { message: `must be between -${limit} and ${limit}` }),
    Max(limit, { message: `must be between -${limit} and ${limit}` }),
  );
}

export class GeoContentDto implements GeoContent {
  @ApiProperty({ description: 'Latitude in decimal degrees (WGS 84).', minimum: -90, maximum: 90, example: 52.520008 })
  @Degrees(90)
  latitude: number;

  @ApiProperty({ description: 'Longitude in decimal degrees (WGS 84).', minimum: -180, maximum: 180, example: 13.404954 })
  @Degrees(180)
  longitude: number;
}
