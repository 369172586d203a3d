import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageLeads, TOKENS } from '@voiceplane/application';
import { pageOf } from '../../validation';
import { pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { LeadBody, LeadListQuery, LeadUpdateBody, parseLead, parseLeadList, parseLeadUpdate } from './lead-body';
import {
  CAMPAIGN_NOT_FOUND,
  IMPORT_ANSWERS,
  LEAD_ANSWERS,
  LEAD_DELETE_ANSWERS,
  LEAD_NOT_FOUND,
} from './campaign-answers';
import { importRows, LeadImportBody } from './lead-import';
import { ApiRequest } from '../../pipeline/request-context';
import { presentLead } from './campaign-presenters';

const tag = 'Leads';
/** Invalid rows listed in the answer; `invalid_count` gives all. */
const INVALID_SHOWN = 100;

/** Leads of campaigns; secondary contacts are leads of their own, read through their primary. */
@Controller('/api/user')
export class LeadController {
  constructor(@inject(TOKENS.ManageLeads) private readonly leads: ManageLeads) {}

  @Doc({ summary: 'List primary leads, newest first, with filters', tag, query: LeadListQuery })
  @Get('/leads')
  async list(@Request() req: ExpressRequest) {
    const { query, filter } = parseLeadList(req.query);
    const page = pageOf(query);
    const result = await this.leads.list(principalOf(req).userId, filter, page);
    return reply(200, pageEnvelope(result.items.map(presentLead), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Add a lead to a campaign (answers 200; alias POST /api/user/leads)', tag, body: LeadBody })
  @Post('/lead')
  async create(@Request() req: ExpressRequest) {
    const lead = parseLead(req.body);
    return reply(
      req,
      () => this.leads.create(principalOf(req).userId, lead),
      (created) =>
        created.ok
          ? { status: 200, body: { message: 'Lead created successfully', data: presentLead(created.value) } }
          : answerFor(LEAD_ANSWERS, created.error),
    );
  }

  @Doc({
    summary:
      'Import up to 10,000 leads into a campaign: JSON `leads`, or a CSV `file` (alias /api/user/campaigns/{id}/leads/import)',
    tag,
    body: LeadImportBody,
  })
  @Post('/campaign/:id/leads/import')
  async importLeads(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const campaignId = pathId(id, CAMPAIGN_NOT_FOUND);
    const rows = importRows(req.body, (req as ApiRequest).ctx.upload);
    return reply(
      req,
      () => this.leads.importLeads(principalOf(req).userId, campaignId, rows),
      (imported) => {
        if (!imported.ok) return answerFor(IMPORT_ANSWERS, imported.error);
        const { accepted, duplicates, doNotCall, invalid } = imported.value;
        const body = {
          message: 'Leads imported.',
          accepted,
          duplicates,
          do_not_call: doNotCall,
          invalid: invalid.slice(0, INVALID_SHOWN),
          invalid_count: invalid.length,
        };
        return { status: 200, body };
      },
    );
  }

  @Doc({ summary: 'Get a lead with its secondary contacts (alias GET /api/user/lead/{id})', tag })
  @Get('/leads/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.leads.get(principalOf(req).userId, pathId(id, LEAD_NOT_FOUND));
    if (!found.ok) refuse(LEAD_ANSWERS, found.error);
    return reply(200, { data: presentLead(found.value) });
  }

  @Doc({
    summary: 'Update a lead; only sent fields change (aliases PUT /api/leads/{id}, PATCH /api/user/leads/{id})',
    tag,
    body: LeadUpdateBody,
  })
  @Put('/leads/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const leadId = pathId(id, LEAD_NOT_FOUND);
    const updated = await this.leads.update(principalOf(req).userId, leadId, parseLeadUpdate(req.body));
    if (!updated.ok) refuse(LEAD_ANSWERS, updated.error);
    return reply(200, { message: 'Lead successfully updated' });
  }

  @Doc({ summary: 'Delete a lead with its secondary contacts (alias DELETE /api/user/lead/{id})', tag })
  @Delete('/leads/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.leads.delete(principalOf(req).userId, pathId(id, LEAD_NOT_FOUND));
    if (!deleted.ok) refuse(LEAD_DELETE_ANSWERS, deleted.error);
    return reply(200, { message: 'Lead deleted successfully' });
  }
}
