/**
 * What a process does (docs/operations.md#process-roles): `all` (the default) serves HTTP and runs
 * the jobs; `api` serves HTTP only (API, redirect host, docs, health, metrics) and only enqueues;
 * `worker` runs the jobs and answers only /health/live, /health/ready and /metrics.
 */
export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/** The role runs the job runner's queues and periodic tasks. */
export const runsJobs = (role: ProcessRole): boolean => role !== 'api';

/** The role serves the API and the redirect host. */
export const servesHttp = (role: ProcessRole): boolean => role !== 'worker';
