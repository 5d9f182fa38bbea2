import { ValidateIf } from 'class-validator';

/**
 * Present unless undefined: unlike IsOptional, null is validated (and rejected) by the rules that
 * follow. For fields where null means nothing (only a few, such as folder_id, give it a meaning:
 * "remove"); a null that passed would reach a NOT NULL column as a 500.
 */
export const IsOptionalNotNull = () => ValidateIf((_, value) => value !== undefined);
