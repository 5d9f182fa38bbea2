import { Module } from '@nestjs/common';
import { BrandKitsController } from './brand-kits.controller';
import { BrandKitsRepository } from './brand-kits.repository';
import { BrandKitsService } from './brand-kits.service';

/** Brand kits (docs/brand-kits.md): the kits API, and kits' looks for drawing codes and checking their styles. */
@Module({
  controllers: [BrandKitsController],
  providers: [BrandKitsRepository, BrandKitsService],
  exports: [BrandKitsService],
})
export class BrandKitsModule {}
