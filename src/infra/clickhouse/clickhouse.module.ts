import { Global, Module } from '@nestjs/common';
import { ClickHouseConnection } from './clickhouse-connection';
import { ClickHouseStatus } from './clickhouse-status';

/** ClickHouse when CLICKHOUSE_URL is set (docs/clickhouse.md): the connection, and what the instance knows of its state. */
@Global()
@Module({ providers: [ClickHouseConnection, ClickHouseStatus], exports: [ClickHouseConnection, ClickHouseStatus] })
export class ClickHouseModule {}
