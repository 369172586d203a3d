import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { err, ok } from '@voiceplane/domain';
import { ManageCampaigns, TOKENS } from '@voiceplane/application';
import { validateDto } from '../../validation';
import { pathId, reply } from '../../pipeline/responses';
import { refuse, validationAnswer, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { CampaignBody, campaignAction, campaignInput, CampaignStatusBody } from './campaign-body';
import { CAMPAIGN_ANSWERS, CAMPAIGN_NOT_FOUND, CAMPAIGN_STATUS_ANSWERS, INVALID_ACTION } from './campaign-answers';
import { presentCampaign, presentStats } from './campaign-presenters';

const tag = 'Campaigns';

/** Campaigns at Famulor's paths (singular and plural spellings are aliases, see the alias table). */
@Controller('/api/user')
export class CampaignController {
  constructor(@inject(TOKENS.ManageCampaigns) private readonly campaigns: ManageCampaigns) {}

  @Doc({ summary: 'List campaigns (a bare array, id ascending)', tag })
  @Get('/campaigns')
  async list(@Request() req: ExpressRequest) {
    return reply(200, (await this.campaigns.list(principalOf(req).userId)).map(presentCampaign));
  }

  @Doc({ summary: 'Create a campaign (draft; alias POST /api/user/campaign)', tag, body: CampaignBody, success: 201 })
  @Post('/campaigns')
  async create(@Request() req: ExpressRequest) {
    const input = campaignInput(req.body, false);
    if (!input.ok) refuse(validationAnswer(input.errors));
    const { value } = input;
    return reply(
      req,
      () => this.campaigns.create(principalOf(req).userId, { ...value, assistantId: value.assistantId as number }),
      (created) =>
        created.ok
          ? { status: 201, body: { message: 'Campaign created successfully', data: presentCampaign(created.value) } }
          : answerFor(CAMPAIGN_ANSWERS, created.error),
    );
  }

  @Doc({ summary: 'Get a campaign with its stats (alias GET /api/user/campaigns/{id})', tag })
  @Get('/campaign/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.campaigns.get(principalOf(req).userId, pathId(id, CAMPAIGN_NOT_FOUND));
    if (!found.ok) refuse(CAMPAIGN_NOT_FOUND);
    return reply(200, { data: { ...presentCampaign(found.value.campaign), stats: presentStats(found.value.stats) } });
  }

  @Doc({
    summary: 'Update a campaign that is not running; only sent fields change (alias PUT /api/user/campaigns/{id})',
    tag,
    body: CampaignBody,
  })
  @Put('/campaign/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const campaignId = pathId(id, CAMPAIGN_NOT_FOUND);
    const input = campaignInput(req.body, true);
    const updated = await this.campaigns.update(
      principalOf(req).userId,
      campaignId,
      input.ok ? ok(input.value) : err(input.errors),
    );
    if (!updated.ok) refuse(CAMPAIGN_ANSWERS, updated.error);
    return reply(200, { message: 'Campaign updated successfully', data: presentCampaign(updated.value) });
  }

  @Doc({ summary: 'Start or stop a campaign; a stop lets open calls finish', tag, body: CampaignStatusBody })
  @Post('/campaigns/update-status')
  async updateStatus(@Request() req: ExpressRequest) {
    const shaped = validateDto(CampaignStatusBody, req.body);
    if (!shaped.ok) refuse(validationAnswer(shaped.errors, 'campaign_status'));
    const action = campaignAction(shaped.value.action);
    if (action === null) refuse(INVALID_ACTION);
    const campaignId = shaped.value.campaign_id;
    const message = action === 'start' ? 'Campaign started successfully.' : 'Campaign stopped successfully.';
    return reply(
      req,
      () => this.campaigns.changeStatus(principalOf(req).userId, campaignId, action),
      (changed) =>
        changed.ok
          ? {
              status: 200,
              body: { message, success: true, data: { campaign_id: campaignId, status: changed.value.status } },
            }
          : answerFor(CAMPAIGN_STATUS_ANSWERS, { ...changed.error, campaignId }),
    );
  }

  @Doc({
    summary: 'Delete a campaign with its leads; a running one is stopped first (alias DELETE /api/user/campaigns/{id})',
    tag,
  })
  @Delete('/campaign/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.campaigns.delete(principalOf(req).userId, pathId(id, CAMPAIGN_NOT_FOUND));
    if (!deleted.ok) refuse(CAMPAIGN_NOT_FOUND);
    return reply(200, { message: 'Campaign deleted successfully' });
  }
}
