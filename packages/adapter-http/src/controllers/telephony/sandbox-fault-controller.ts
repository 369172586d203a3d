import { Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Id, Int, isPlainObject, Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { SANDBOX_FAULT_ANSWERS } from './telephony-answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { SandboxFaults } from './sandbox-faults';

class FaultBody {
  @Str({ required: true, max: 64, description: 'Fault kind, e.g. `sip_provisioning`, `number_inventory`' })
  kind!: string;
  @Id({ nullable: true, description: 'One of your own resources the fault is limited to' }) target_id?: number | null;
  @Int({ min: 1, max: 100, description: 'How many operations fail (default 1)' }) count?: number;
}

class TextTargetFaultBody {
  @Str({ required: true, max: 64 }) kind!: string;
  @Str({
    max: 64,
    nullable: true,
    description: 'Text id of one of your own resources (automation_rollback: an automation id)',
  })
  target_id?: string | null;
  @Int({ min: 1, max: 100 }) count?: number;
}

/** The sandbox fault route: arms a fault in a sandbox provider for the caller's own operations. */
@Controller('/api/sandbox/faults')
export class SandboxFaultController {
  constructor(@inject(SandboxFaults) private readonly faults: SandboxFaults) {}

  @Doc({ summary: 'Sandbox: make the next operations of a kind fail', tag: 'Sandbox', body: FaultBody })
  @Post('/')
  async arm(@Request() req: ExpressRequest) {
    const raw = isPlainObject(req.body) ? req.body : {};
    // Kinds aimed at text ids take `target_id` as given; the others validate it as an integer id.
    const textTarget = typeof raw.kind === 'string' && this.faults.hasTextTargets(raw.kind);
    const body: FaultBody | TextTargetFaultBody = textTarget
      ? parse(TextTargetFaultBody, req.body)
      : parse(FaultBody, req.body);
    const armer = this.faults.armerOf(body.kind);
    if (armer === undefined) refuse(SANDBOX_FAULT_ANSWERS, 'unknown_kind');
    if (armer === null) refuse(SANDBOX_FAULT_ANSWERS, 'not_found');
    const targetId = typeof body.target_id === 'number' ? body.target_id : null;
    const targetRef = typeof body.target_id === 'string' ? body.target_id : null;
    const armed = await armer({ userId: principalOf(req).userId, targetId, targetRef, count: body.count ?? 1 });
    if (armed === 'not_found') refuse(SANDBOX_FAULT_ANSWERS, armed);
    return reply(200, {
      ok: true,
      fault: { kind: body.kind, target_id: targetRef ?? targetId, remaining: armed.remaining },
    });
  }
}
