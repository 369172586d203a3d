import { Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { err } from '@voiceplane/domain';
import { CreateSipTrunk, SipTrunkQueries, TOKENS, UpdateSipTrunk } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { CreateSipTrunkBody, DryRunQuery, newTrunk, parseTrunkUpdate, SipTrunkFieldsBody } from './sip-trunk-body';
import { presentSipTrunk } from './presenters';
import {
  CREATE_TRUNK_FAILED,
  SIP_TRUNK_NOT_FOUND,
  SIP_TRUNK_READ_ANSWERS,
  sipTrunkWriteAnswers,
  TELEPHONY_SUCCESS,
  UPDATE_TRUNK_FAILED,
} from './telephony-answers';

/** SIP trunks; deletion is the phone-number route. */
@Controller('/api/user/phone-numbers/sip-trunks')
export class SipTrunkController {
  constructor(
    @inject(TOKENS.SipTrunkQueries) private readonly trunks: SipTrunkQueries,
    @inject(TOKENS.CreateSipTrunk) private readonly createTrunk: CreateSipTrunk,
    @inject(TOKENS.UpdateSipTrunk) private readonly updateTrunk: UpdateSipTrunk,
  ) {}

  @Doc({ summary: 'List SIP trunks, newest first', tag: 'Phone numbers' })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const trunks = await this.trunks.list(principalOf(req).userId);
    return reply(200, { data: trunks.map(presentSipTrunk) });
  }

  @Doc({
    summary: 'Create a SIP trunk (provisions inbound and outbound provider trunks)',
    tag: 'Phone numbers',
    body: CreateSipTrunkBody,
    success: 201,
  })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateSipTrunkBody, req.body);
    return reply(
      req,
      () => this.createTrunk.execute(principalOf(req).userId, newTrunk(body)),
      (created) =>
        created.ok
          ? { status: 201, body: { message: TELEPHONY_SUCCESS.trunkCreated, data: presentSipTrunk(created.value) } }
          : answerFor(sipTrunkWriteAnswers(CREATE_TRUNK_FAILED), created.error),
    );
  }

  @Doc({ summary: 'Get a SIP trunk', tag: 'Phone numbers' })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.trunks.get(principalOf(req).userId, pathId(id, SIP_TRUNK_NOT_FOUND));
    if (!found.ok) refuse(SIP_TRUNK_READ_ANSWERS, found.error);
    return reply(200, { data: presentSipTrunk(found.value) });
  }

  @Doc({
    summary: 'Update a SIP trunk; re-provisions make-before-break (dry_run=true previews)',
    tag: 'Phone numbers',
    body: SipTrunkFieldsBody,
    query: DryRunQuery,
  })
  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const trunkId = pathId(id, SIP_TRUNK_NOT_FOUND);
    const { changes, dryRun } = parseTrunkUpdate(req.body, req.query);
    const updated = await this.updateTrunk.execute({
      userId: principalOf(req).userId,
      id: trunkId,
      changes: changes.ok ? changes : err('malformed' as const),
      dryRun,
    });
    if (!updated.ok) refuse(sipTrunkWriteAnswers(UPDATE_TRUNK_FAILED, changes.ok ? {} : changes.error), updated.error);
    const data = presentSipTrunk(updated.value.trunk);
    if (dryRun) return reply(200, { message: TELEPHONY_SUCCESS.dryRun, data, reprovision: updated.value.reprovision });
    return reply(200, { message: TELEPHONY_SUCCESS.trunkUpdated, data });
  }
}
