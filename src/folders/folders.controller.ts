import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountId } from '../common/auth/account-id';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { ResourceIdPipe } from '../common/validation/resource-id.pipe';
import { FolderBodyDto, FolderView } from './dto/folder.dto';
import { FoldersService } from './folders.service';

const folderId = new ResourceIdPipe('Folder');

@ApiTags('folders')
@ApiSecurity('api-key')
@Controller('api/v1/folders')
export class FoldersController {
  constructor(private readonly folders: FoldersService) {}

  @Post()
  @ApiOperation({ summary: 'Create a folder' })
  create(@CurrentAccount() account: AccountId, @Body() body: FolderBodyDto): Promise<FolderView> {
    return this.folders.create(account, body.name);
  }

  @Get()
  @ApiOperation({ summary: 'List your folders with their QR code counts' })
  async list(@CurrentAccount() account: AccountId): Promise<{ data: FolderView[] }> {
    return { data: await this.folders.list(account) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a folder' })
  get(@CurrentAccount() account: AccountId, @Param('id', folderId) id: string): Promise<FolderView> {
    return this.folders.get(account, id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Rename a folder' })
  rename(@CurrentAccount() account: AccountId, @Param('id', folderId) id: string, @Body() body: FolderBodyDto): Promise<FolderView> {
    return this.folders.rename(account, id, body.name);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a folder; its QR codes are kept and moved out of it' })
  async delete(@CurrentAccount() account: AccountId, @Param('id', folderId) id: string): Promise<{ message: string }> {
    await this.folders.delete(account, id);
    return { message: 'Folder deleted' };
  }
}
