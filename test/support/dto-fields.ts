import { getMetadataStorage } from 'class-validator';

/** The fields a request body of this class may carry (the validation pipe refuses any other), sorted. */
export function acceptedFields(dto: new () => object): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(rules.map((rule) => rule.propertyName))].sort();
}
