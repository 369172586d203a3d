import { err, ok, Result } from '../common/result';
import { CampaignStatus } from './campaign';

/** Refusals of a start or stop that depend on the campaign's status alone. */
export type CampaignStatusRefusal = 'already_in_progress' | 'not_running';

/** `draft`, `stopped` and `completed` campaigns start; the other checks (assistant, leads, balance) come after. */
export function canStart(status: CampaignStatus): Result<'in-progress', CampaignStatusRefusal> {
  return status === 'in-progress' ? err('already_in_progress') : ok('in-progress');
}

/** Stopping a stopped campaign is accepted and changes nothing (`changed` false). */
export function canStop(status: CampaignStatus): Result<{ readonly changed: boolean }, CampaignStatusRefusal> {
  if (status === 'in-progress') return ok({ changed: true });
  if (status === 'stopped') return ok({ changed: false });
  return err('not_running');
}
