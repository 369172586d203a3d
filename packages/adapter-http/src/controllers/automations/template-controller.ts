import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AutomationTemplate, findTemplate, JsonObject, TEMPLATE_CATALOGUE, TemplateParams } from '@voiceplane/domain';
import { ApplyTemplate, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { answerFor, refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { ApplyTemplateBody, readTemplateBody } from './automation-bodies';
import { APPLY_ANSWERS, TEMPLATE_NOT_FOUND } from './automation-answers';
import { presentApplied, presentTemplate } from './automation-presenters';

const BASE = '/api/user/automate/templates';

/** What the catalogue shows as a template's sample input: the examples put in (assistant 0). */
export function catalogueSample(t: AutomationTemplate): JsonObject {
  const examples: TemplateParams = Object.fromEntries(t.params.map((p) => [p.key, p.example]));
  return t.sampleInput(examples, { assistantId: 0, firstKeyValue: '' });
}

function templateOr404(key: string): AutomationTemplate {
  const template = findTemplate(key);
  if (template === null) refuse(TEMPLATE_NOT_FOUND);
  return template;
}

@Controller(BASE)
export class TemplateController {
  constructor(@inject(TOKENS.ApplyTemplate) private readonly apply: ApplyTemplate) {}

  @Doc({ summary: 'The automation template catalogue', tag: 'Automations' })
  @Get('/')
  list() {
    return reply(200, { data: TEMPLATE_CATALOGUE.map((t) => presentTemplate(t, catalogueSample(t))) });
  }

  @Doc({ summary: 'One automation template', tag: 'Automations' })
  @Get('/:key')
  get(@Params({ name: 'key' }) key: string) {
    const template = templateOr404(key);
    return reply(200, { data: presentTemplate(template, catalogueSample(template)) });
  }

  @Doc({
    summary: 'Apply a template: checks, real test, publish and bind',
    tag: 'Automations',
    body: ApplyTemplateBody,
    success: 201,
  })
  @Post('/:key')
  async applyTemplate(@Request() req: ExpressRequest, @Params({ name: 'key' }) key: string) {
    const template = templateOr404(key);
    const { value: body, params, sample } = readTemplateBody(ApplyTemplateBody, req.body);
    const principal = principalOf(req);
    const apply = () =>
      this.apply.execute({
        userId: principal.userId,
        plan: principal.plan,
        template,
        params,
        assistantId: body.assistant_id ?? null,
        name: body.name ?? null,
        confirmSideEffects: body.confirm_side_effects === true,
        test: body.test ?? true,
        sample,
      });
    return reply(req, apply, (result) =>
      result.ok
        ? { status: result.value.status === 'test_failed' ? 200 : 201, body: presentApplied(result.value) }
        : answerFor(APPLY_ANSWERS, result.error),
    );
  }
}
