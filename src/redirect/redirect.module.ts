import { Module } from '@nestjs/common';
import { ScansModule } from '../scans';
import { SmartLinksModule } from '../smart-links';
import { RedirectService } from './redirect.service';
import { ScanRecorder } from './scan-recorder';
import { HostRoutes } from './host-routes';

/**
 * The redirect host (docs/architecture.md#scan-flow): its routes and host dispatch are plain
 * Fastify (redirect-host.ts, host-dispatch.ts, built by createApp); its answers (RedirectService)
 * and the record step (ScanRecorder) are providers over smart links and the scan pipeline.
 */
@Module({
  imports: [SmartLinksModule, ScansModule],
  providers: [RedirectService, ScanRecorder, HostRoutes],
  exports: [RedirectService, ScanRecorder, HostRoutes],
})
export class RedirectModule {}
