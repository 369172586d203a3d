import { Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { SearchKnowledgeForCall, TOKENS } from '@voiceplane/application';
import { Id, Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { CALL_KNOWLEDGE_ANSWERS } from './knowledge-base-answers';
import { Doc } from '../../openapi/route-doc';

export class RuntimeKnowledgeSearchBody {
  @Id({ required: true }) call_id!: number;
  @Str({
    required: true,
    min: 1,
    max: 2000,
    description: "What to look up: the customer's latest line, or the model's search",
  })
  query!: string;
  @Str({
    required: true,
    enum: ['prompt', 'function_call'],
    description: 'How the passages are used: added to the instructions, or read back by the model',
  })
  mode!: 'prompt' | 'function_call';
  @Id({
    description:
      "Default: the knowledge base of the call's assistant; else one of an assistant the call may be handed to",
  })
  knowledgebase_id?: number;
}

/** The voice runtime reads its assistant's knowledge base through here. Bound only where calls exist. */
@Controller('/api/runtime/knowledge-searches')
export class RuntimeKnowledgeController {
  constructor(@inject(TOKENS.SearchKnowledgeForCall) private readonly search: SearchKnowledgeForCall) {}

  @Doc({
    summary: "Search the knowledge base of a live call's assistant",
    tag: 'Runtime',
    auth: 'runtime',
    body: RuntimeKnowledgeSearchBody,
  })
  @Post('/')
  async find(@Request() req: ExpressRequest) {
    const body = parse(RuntimeKnowledgeSearchBody, req.body);
    const found = await this.search.execute({
      callId: body.call_id,
      query: body.query,
      mode: body.mode,
      knowledgeBaseId: body.knowledgebase_id ?? null,
    });
    if (!found.ok) refuse(CALL_KNOWLEDGE_ANSWERS, found.error);
    return reply(200, {
      passages: found.value.map((p, i) => ({
        rank: i + 1,
        document_id: p.documentId,
        document: p.documentName,
        position: p.position,
        content: p.content,
        score: p.score,
      })),
    });
  }
}
