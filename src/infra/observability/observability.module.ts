import { Global, Module } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { QueueMetrics } from './queue-metrics';

@Global()
@Module({
  imports: [PrometheusModule.register({ controller: MetricsController, defaultMetrics: { enabled: true } })],
  controllers: [HealthController],
  providers: [MetricsService, QueueMetrics],
  exports: [MetricsService, QueueMetrics],
})
export class ObservabilityModule {}
