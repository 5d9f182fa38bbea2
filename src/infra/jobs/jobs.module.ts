import { Global, Module } from '@nestjs/common';
import { JobQueueRepository } from './job-queue.repository';
import { JobRunner } from './job-runner.service';
import { JobWorker } from './job-worker.service';
import { PeriodicTaskRunsRepository } from './periodic-task-runs.repository';

/**
 * The one job runner and the jobs queue (exports, imports): global, so each feature registers its
 * queue, its periodic tasks or its job handler with them (docs/architecture.md#jobs).
 */
@Global()
@Module({
  providers: [JobRunner, PeriodicTaskRunsRepository, JobQueueRepository, JobWorker],
  exports: [JobRunner, JobQueueRepository, JobWorker],
})
export class JobsModule {}
