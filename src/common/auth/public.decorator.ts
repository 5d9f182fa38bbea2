import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Routes that need no API key (redirect host, health, metrics, admin with its own token). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
