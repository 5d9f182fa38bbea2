import { Module } from '@nestjs/common';
import { TagsController } from './tags.controller';
import { TagsRepository } from './tags.repository';
import { TagsService } from './tags.service';

/** Tags (docs/tags-and-bulk-edits.md): the tags API, and the names of codes' tags resolved for the QR code module. */
@Module({
  controllers: [TagsController],
  providers: [TagsRepository, TagsService],
  exports: [TagsService],
})
export class TagsModule {}
