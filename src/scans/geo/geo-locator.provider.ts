import { Logger, type Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { BUNDLED_GEO_DATABASE, GeoLocator } from './geo-locator';

/** How often the geo database's file is checked for a change (a stat every few seconds costs nothing). */
const GEO_DATABASE_WATCH_MS = 5000;

/**
 * The GeoLocator of the configuration: GEOIP_DB or the bundled database, and GEO_COUNTRY_HEADER
 * only behind a trusted proxy (TRUST_PROXY): without one, any client could set the header.
 */
export function openGeoLocator(config: AppConfig, logger = new Logger('GeoLocator')): GeoLocator {
  const { database, countryHeader } = config.geo;
  if (countryHeader && config.trustProxy === 0)
    logger.warn(`GEO_COUNTRY_HEADER (${countryHeader}) is ignored: it is believed only behind a trusted proxy (set TRUST_PROXY)`);
  return GeoLocator.open({
    databasePath: database ?? require.resolve(BUNDLED_GEO_DATABASE),
    countryHeader: countryHeader && config.trustProxy > 0 ? countryHeader : null,
    watchIntervalMs: GEO_DATABASE_WATCH_MS,
    warn: (message) => logger.warn(message),
    info: (message) => logger.log(message),
  });
}

export const GEO_LOCATOR_PROVIDER: Provider = {
  provide: GeoLocator,
  useFactory: (config: AppConfig) => openGeoLocator(config),
  inject: [APP_CONFIG],
};
