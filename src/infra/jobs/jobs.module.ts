import { Global, Module } from '@nestjs/common';
import { JobQueueRepository } from './job-queue.repository';
import { JobWorker } from './job-worker.service';

/** The one job queue (exports, imports): global, so each feature module registers its handler with the worker. */
@Global()
@Module({ providers: [JobQueueRepository, JobWorker], exports: [JobQueueRepository, JobWorker] })
export class JobsModule {}
