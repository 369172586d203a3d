import { Controller, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { KNOWLEDGE_BASE_STATUSES, KnowledgeBaseStatus } from '@voiceplane/domain';
import { AdministerAssistants, TOKENS } from '@voiceplane/application';
import { Bool, Int, Str } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { answerFor, refuse } from '../../pipeline/answers';
import { ACCOUNT_ANSWERS, USER_NOT_FOUND } from '../account-answers';
import { ASSISTANT_NOT_FOUND, ASSISTANT_SUCCESS } from './assistant-answers';
import { Doc } from '../../openapi/route-doc';
import { presentEventType } from './presenters';
import { presentKnowledgeBase } from '../knowledge-bases/presenters';

class ComplianceBody {
  @Bool({ required: true }) blocked!: boolean;
  @Str({ max: 500, nullable: true }) reason?: string | null;
}

class KnowledgeBaseBody {
  @Str({ required: true, max: 255 }) name!: string;
  @Str({ max: 1000, nullable: true }) description?: string | null;
  @Str({ enum: KNOWLEDGE_BASE_STATUSES, description: 'Default active' }) status?: KnowledgeBaseStatus;
}

class EventTypeBody {
  @Str({ required: true, max: 255 }) name!: string;
  @Int({ required: true, min: 5, max: 480 }) duration_minutes!: number;
}

const tag = 'Admin';

/**
 * Operator routes (compliance, knowledge bases, event types); the pipeline has already checked the admin token. Like the other admin
 * routes, the body is validated before the user is looked up.
 */
@Controller('/api/admin')
export class AssistantAdminController {
  constructor(@inject(TOKENS.AdministerAssistants) private readonly admin: AdministerAssistants) {}

  /** Leaves `status` alone; activation, calls and chat replies consult the flag. */
  @Doc({ summary: 'Block or unblock an assistant for compliance review', tag, auth: 'admin', body: ComplianceBody })
  @Put('/assistants/:id/compliance')
  async compliance(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const assistantId = pathId(id, ASSISTANT_NOT_FOUND);
    const body = parse(ComplianceBody, req.body);
    const reason = body.reason ?? null;
    if (!(await this.admin.setCompliance(assistantId, body.blocked, reason)).ok) refuse(ASSISTANT_NOT_FOUND);
    return reply(200, {
      message: ASSISTANT_SUCCESS.complianceUpdated,
      data: { assistant_id: assistantId, compliance_blocked: body.blocked, reason },
    });
  }

  @Doc({ summary: 'Create a knowledge base for a user', tag, auth: 'admin', body: KnowledgeBaseBody, success: 201 })
  @Post('/users/:id/knowledgebases')
  async createKnowledgeBase(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = pathId(id, USER_NOT_FOUND);
    const body = parse(KnowledgeBaseBody, req.body);
    const create = () =>
      this.admin.createKnowledgeBase(userId, {
        name: body.name,
        description: body.description ?? null,
        status: body.status ?? 'active',
      });
    return reply(req, create, (result) =>
      result.ok
        ? { status: 201, body: { data: presentKnowledgeBase(result.value) } }
        : answerFor(ACCOUNT_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Create a scheduling event type for a user', tag, auth: 'admin', body: EventTypeBody, success: 201 })
  @Post('/users/:id/event-types')
  async createEventType(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = pathId(id, USER_NOT_FOUND);
    const body = parse(EventTypeBody, req.body);
    return reply(
      req,
      () => this.admin.createEventType(userId, { name: body.name, durationMinutes: body.duration_minutes }),
      (result) =>
        result.ok
          ? { status: 201, body: { data: presentEventType(result.value) } }
          : answerFor(ACCOUNT_ANSWERS, result.error),
    );
  }
}
