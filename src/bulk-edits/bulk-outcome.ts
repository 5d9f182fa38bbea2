import type { FieldError } from '../common/validation/field-error';

/** How many changed codes an answer shows, and how many refused ones. */
export const SAMPLE_SIZE = 10;
export const ERRORS_SHOWN = 20;

export interface SampleItem {
  id: string;
  name: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** What a bulk edit did (or, dry, would do): as the answer and the job's result show it. */
export interface BulkOutcome {
  matched: number;
  changed: number;
  failed: number;
  sample: SampleItem[];
  errors: Array<{ id: string; errors: FieldError[] }>;
}

export const emptyOutcome = (): BulkOutcome => ({ matched: 0, changed: 0, failed: 0, sample: [], errors: [] });

/** One code's result, added to the outcome (pure: the sample and the errors are capped). */
export function addResult(
  outcome: BulkOutcome,
  result: { kind: 'unchanged' } | { kind: 'changed'; item: SampleItem } | { kind: 'failed'; id: string; errors: FieldError[] },
): void {
  outcome.matched++;
  if (result.kind === 'changed') {
    outcome.changed++;
    if (outcome.sample.length < SAMPLE_SIZE) outcome.sample.push(result.item);
  } else if (result.kind === 'failed') {
    outcome.failed++;
    if (outcome.errors.length < ERRORS_SHOWN) outcome.errors.push({ id: result.id, errors: result.errors });
  }
}
