import type { KeyPrincipal } from '../../common/auth/key-principal';
import type { RequestContext } from '../http/request-context';

/** What the job queue runs: a ZIP export, a CSV import. */
export type JobKind = 'export' | 'import';
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The key and request that submitted a job, kept with it: the job runs as part of that request. */
export interface SubmittedBy {
  requestId: string | null;
  principal: KeyPrincipal | null;
}

export function submittedBy(context: RequestContext | undefined): SubmittedBy {
  return { requestId: context?.requestId ?? null, principal: context?.principal ?? null };
}

export function requestContextOf(submitted: SubmittedBy): RequestContext {
  return { requestId: submitted.requestId ?? 'job', ...(submitted.principal && { principal: submitted.principal }) };
}

/** Thrown by a job's progress report when another instance has taken the job over: the work stops. */
export class JobLeaseLost extends Error {
  constructor() {
    super('The job was taken over by another instance');
  }
}
