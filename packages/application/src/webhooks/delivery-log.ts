import { DeliveryAttempt, err, ok, Result, WebhookDelivery } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { DeliveryFilter, WebhookDeliveryRepository } from './ports';

/** A delivery with every attempt made of it, oldest first. */
export interface DeliveryRecord {
  readonly delivery: WebhookDelivery;
  readonly attempts: readonly DeliveryAttempt[];
}

/** An account's delivery log: its own deliveries only, another account's delivery is not found. */
export class DeliveryLog {
  constructor(private readonly deliveries: WebhookDeliveryRepository) {}

  list(userId: number, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    return this.deliveries.list(userId, filter, page);
  }

  async get(userId: number, id: string): Promise<Result<DeliveryRecord, 'not_found'>> {
    const delivery = await this.deliveries.find(userId, id);
    if (delivery === null) return err('not_found');
    return ok({ delivery, attempts: await this.deliveries.attempts(delivery.id) });
  }
}
