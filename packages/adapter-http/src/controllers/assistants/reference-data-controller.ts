import { Controller, Get, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  ASSISTANT_MODES,
  AssistantMode,
  MODEL_KINDS,
  ModelKind,
  PROVIDER_KINDS,
  ProviderKind,
} from '@voiceplane/domain';
import { ReferenceData, TOKENS } from '@voiceplane/application';
import { Id, Str, ListFilters } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { refuse, validationAnswer } from '../../pipeline/answers';
import { REFERENCE_DATA_ANSWERS } from './assistant-answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { presentEventType } from './presenters';

@ListFilters()
class VoicesQuery {
  @Str({ enum: ASSISTANT_MODES }) mode?: AssistantMode;
  @Id() language_id?: number;
}

/** Famulor's `type` names the engine mode the models are for; dualplex runs on multimodal models. */
const MODEL_TYPES = ['llm', 'multimodal', 'dualplex'] as const;

@ListFilters()
class ModelsQuery {
  @Str({
    enum: MODEL_TYPES,
    description: 'llm (the default when neither type nor kind is given), multimodal or dualplex',
  })
  type?: (typeof MODEL_TYPES)[number];
  @Str({ enum: MODEL_KINDS, description: "voiceplane's name of the filter; must agree with type" }) kind?: ModelKind;
}

/** The model kind asked for; both names given must agree. */
function modelKindOf(q: ModelsQuery): ModelKind {
  const typed: ModelKind | undefined = q.type === undefined ? undefined : q.type === 'llm' ? 'llm' : 'multimodal';
  if (typed && q.kind && typed !== q.kind) refuse(validationAnswer({ type: ['The type must match the kind.'] }));
  return q.kind ?? typed ?? 'llm';
}

@ListFilters()
class ProvidersQuery {
  @Str({ enum: PROVIDER_KINDS }) kind?: ProviderKind;
  @Id({ description: 'providers that can serve this language' }) language_id?: number;
}

const tag = 'Reference data';

/** The catalogue and the account's own reference records. */
@Controller('/api/user')
export class ReferenceDataController {
  constructor(@inject(TOKENS.ReferenceData) private readonly reference: ReferenceData) {}

  @Doc({ summary: 'Languages (bare array)', tag })
  @Get('/assistants/languages')
  async languages() {
    return reply(200, await this.reference.languages());
  }

  @Doc({ summary: 'Public voices, filtered by mode and language (bare array)', tag, query: VoicesQuery })
  @Get('/assistants/voices')
  async voices(@Request() req: ExpressRequest) {
    const q = parse(VoicesQuery, req.query);
    const result = await this.reference.voices({ mode: q.mode, languageId: q.language_id });
    if (!result.ok) refuse(REFERENCE_DATA_ANSWERS, result.error);
    return reply(200, result.value);
  }

  @Doc({ summary: 'Models for an engine mode, LLM by default (bare array)', tag, query: ModelsQuery })
  @Get('/assistants/models')
  async models(@Request() req: ExpressRequest) {
    return reply(200, await this.reference.models(modelKindOf(parse(ModelsQuery, req.query))));
  }

  @Doc({ summary: 'Synthesizer and transcriber providers (bare array)', tag, query: ProvidersQuery })
  @Get('/assistants/providers')
  async providers(@Request() req: ExpressRequest) {
    const q = parse(ProvidersQuery, req.query);
    const result = await this.reference.providers({ kind: q.kind, languageId: q.language_id });
    if (!result.ok) refuse(REFERENCE_DATA_ANSWERS, result.error);
    return reply(200, result.value);
  }

  @Doc({ summary: 'Scheduling event types of the account', tag })
  @Get('/scheduling/event-types')
  async eventTypeList(@Request() req: ExpressRequest) {
    const items = await this.reference.eventTypes(principalOf(req).userId);
    return reply(200, { data: items.map(presentEventType) });
  }
}
