import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { WebhooksRepository } from '../webhooks.repository';
import { SecretBox } from './signing';

/**
 * Seals and opens endpoints' signing secrets (SecretBox). The key is derived from
 * WEBHOOK_SECRETS_KEY; without it, from a random value kept in the database (service_settings),
 * created by the first instance that needs it: secrets are then still unreadable in a copy of the
 * webhook tables alone, but not in a copy of the whole database, so production deployments set
 * WEBHOOK_SECRETS_KEY (docs/webhooks.md).
 */
@Injectable()
export class SigningSecrets {
  private readonly logger = new Logger('Webhooks');
  private box?: Promise<SecretBox>;

  constructor(
    private readonly webhooks: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async seal(secret: string, endpointId: string): Promise<string> {
    return (await this.secretBox()).seal(secret, endpointId);
  }

  async open(sealed: string, endpointId: string): Promise<string> {
    return (await this.secretBox()).open(sealed, endpointId);
  }

  private secretBox(): Promise<SecretBox> {
    this.box ??= this.makeBox().catch((error: unknown) => {
      this.box = undefined;
      throw error;
    });
    return this.box;
  }

  private async makeBox(): Promise<SecretBox> {
    const configured = this.config.webhooks.secretsKey;
    if (configured) return SecretBox.fromKeyMaterial(configured);
    if (this.config.databaseUrl)
      this.logger.warn('WEBHOOK_SECRETS_KEY is not set: webhook signing secrets are encrypted with a key kept in the database itself');
    return SecretBox.fromKeyMaterial(await this.webhooks.storedSecretsKey());
  }
}
