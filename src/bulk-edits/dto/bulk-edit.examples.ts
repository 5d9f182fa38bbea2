/**
 * Request examples of the bulk edits. Each is valid as it stands against a fresh account (a test
 * executes every one): a filter that selects no code answers 200 with `matched: 0`.
 */
import type { BodyExample } from '../../common/openapi/json-body';
import type { BulkDeleteDto, BulkUpdateDto } from './bulk-edit.dto';

export const BULK_UPDATE_EXAMPLES: Record<string, BodyExample<BulkUpdateDto>> = {
  pauseAndTag: {
    summary: "Pause a campaign's dynamic codes and tag them",
    value: { filter: { tag: ['spring'], is_dynamic: 'true' }, set: { status: 'paused' }, add_tags: ['ended'], remove_tags: ['live'] },
  },
  moveTargets: {
    summary: 'Point every url code from the old site to the new one',
    value: { filter: { type: 'url', search: 'old.example' }, replace_target: { from: 'https://old.example/', to: 'https://new.example/' } },
  },
};

export const BULK_DELETE_EXAMPLES: Record<string, BodyExample<BulkDeleteDto>> = {
  byTag: { summary: "Delete a finished campaign's codes", value: { filter: { tag: ['spring-2025'] } } },
};
