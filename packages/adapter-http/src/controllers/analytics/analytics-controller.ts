import { Controller, Get, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CallAnalyticsReport, CallAnalyticsReports, TOKENS } from '@voiceplane/application';
import { Id, ListFilters, parseTimestamp, Str, validateDto } from '../../validation';
import { reply } from '../../pipeline/responses';
import { refuse, validationAnswer } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { ANALYTICS_ANSWERS } from './analytics-answers';

@ListFilters()
export class CallAnalyticsQuery {
  @Str({ timestamp: true, description: 'ISO 8601; the first UTC day shown (default: 29 days before `to`)' })
  from?: string;
  @Str({ timestamp: true, description: 'ISO 8601; the last UTC day shown (default: today)' }) to?: string;
  @Id({ description: "Only this assistant's calls" }) assistant_id?: number;
  @Str({
    max: 64,
    pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
    description:
      "The boolean extracted variable that marks a completed call's goal as met (default `status`, set by the post-call evaluation)",
  })
  goal_variable?: string;
}

const timestampOf = (value: string | undefined): Date | undefined =>
  value === undefined ? undefined : (parseTimestamp(value) ?? undefined);

function present(r: CallAnalyticsReport) {
  const t = r.totals;
  return {
    from: r.from.toISOString().slice(0, 10),
    to: r.to.toISOString().slice(0, 10),
    assistant_id: r.assistantId,
    goal_variable: r.goalVariable,
    totals: {
      calls: t.calls,
      answered: t.answered,
      answer_rate: t.answerRate,
      average_duration: t.averageDuration,
      p95_duration: t.p95Duration,
      cost: t.cost,
      completed: t.completed,
      goal_met: t.goalMet,
      success_rate: t.successRate,
    },
    days: r.days.map((d) => ({ date: d.date, calls: d.calls, by_status: d.byStatus, cost: d.cost })),
    ended_reasons: r.endedReasons.map((e) => ({ ended_reason: e.endedReason, calls: e.calls })),
  };
}

/** The calls dashboard, computed by the database over the account's calls. */
@Controller('/api/user/analytics')
export class AnalyticsController {
  constructor(@inject(TOKENS.CallAnalyticsReports) private readonly reports: CallAnalyticsReports) {}

  @Doc({
    summary:
      'Call analytics over whole UTC days: calls per day by status, answer rate, average and p95 duration, cost per day, success rate, top ended reasons',
    tag: 'Calls',
    query: CallAnalyticsQuery,
  })
  @Get('/calls')
  async calls(@Request() req: ExpressRequest) {
    const shaped = validateDto(CallAnalyticsQuery, req.query ?? {});
    if (!shaped.ok) refuse(validationAnswer(shaped.errors));
    const q = shaped.value;
    const report = await this.reports.report(principalOf(req).userId, {
      from: timestampOf(q.from),
      to: timestampOf(q.to),
      assistantId: q.assistant_id,
      goalVariable: q.goal_variable,
    });
    if (!report.ok) refuse(ANALYTICS_ANSWERS, report.error);
    return reply(200, { data: present(report.value) });
  }
}
