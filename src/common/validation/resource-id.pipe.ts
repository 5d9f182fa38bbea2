import { applyDecorators, Injectable, type PipeTransform } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import type {
  ApiKeyId,
  BrandKitId,
  DeliveryId,
  DomainId,
  FolderId,
  Gs1ItemId,
  ImageLinkId,
  JobId,
  QrCodeId,
  ShareLinkId,
  WebhookId,
} from '../ids/resource-ids';
import { isUuid, notAUuid } from '../ids/resource-ids';
import { ValidationFailedException } from './validation-failed.exception';

/**
 * A path id: a UUID (400 naming the parameter otherwise), lower-cased and branded with its kind.
 * Whether it names one of the caller's resources is the query's business (404).
 */
@Injectable()
export class ResourceIdPipe<Id extends string> implements PipeTransform<string, Id> {
  constructor(private readonly parameter = 'id') {}

  transform(value: string): Id {
    if (!isUuid(value)) throw new ValidationFailedException([{ field: this.parameter, message: notAUuid(this.parameter) }]);
    return value.toLowerCase() as Id;
  }
}

export const qrCodeIdPipe = new ResourceIdPipe<QrCodeId>();
export const folderIdPipe = new ResourceIdPipe<FolderId>();
export const domainIdPipe = new ResourceIdPipe<DomainId>();
export const apiKeyIdPipe = new ResourceIdPipe<ApiKeyId>();
export const webhookIdPipe = new ResourceIdPipe<WebhookId>();
export const jobIdPipe = new ResourceIdPipe<JobId>();
export const shareLinkIdPipe = new ResourceIdPipe<ShareLinkId>('token_id');
export const imageLinkIdPipe = new ResourceIdPipe<ImageLinkId>();
export const brandKitIdPipe = new ResourceIdPipe<BrandKitId>();
export const gs1ItemIdPipe = new ResourceIdPipe<Gs1ItemId>();
export const deliveryIdPipe = new ResourceIdPipe<DeliveryId>('delivery_id');

/**
 * A body or query field holding a resource id: a UUID (`<field> must be a UUID`), lower-cased like
 * path ids, so ids compare equal however the client wrote them. `each`: a list of ids.
 */
export function ResourceIdField(options: { each?: boolean } = {}): PropertyDecorator {
  const lower = (value: unknown) => (typeof value === 'string' && isUuid(value) ? value.toLowerCase() : value);
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (options.each && Array.isArray(value) ? value.map(lower) : lower(value))),
    ValidateBy(
      {
        name: 'isResourceId',
        validator: {
          validate: (value) => isUuid(value),
          defaultMessage: (args) => (options.each ? `each of ${args?.property ?? 'ids'} must be a UUID` : notAUuid(args?.property ?? 'id')),
        },
      },
      { each: options.each },
    ),
  );
}
