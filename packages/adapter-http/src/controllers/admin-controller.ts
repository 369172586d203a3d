import { Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Plan } from '@voiceplane/domain';
import { AdministerAccounts, BalanceService, CreateAccount, TOKENS } from '@voiceplane/application';
import { Bool, Int, Num, Obj, PageQuery, pageOf, Str, validateDto, ListFilters } from '../validation';
import { parse, pathId, reply } from '../pipeline/responses';
import { refuse, validationAnswer, answerFor } from '../pipeline/answers';
import { ACCOUNT_ANSWERS, ACCOUNT_SUCCESS, USER_NOT_FOUND } from './account-answers';
import { requestIdOf } from '../pipeline/request-context';
import { presentAdminUser, presentLedgerEntry, presentPlan } from '../presenters/account';
import { pageEnvelope } from '../presenters/format';
import { Doc } from '../openapi/route-doc';

/** One operator posting moves at most this much (USD): larger figures are typing mistakes, and balances are numeric(14,4). */
const MAX_OPERATOR_AMOUNT = 1_000_000;
class PlanBody {
  @Str({ min: 1, max: 64 }) name?: string;
  @Int({ min: 0, max: 1000 }) max_mid_call_tools?: number;
  @Int({ min: 1, max: 100000 }) api_rate_limit_per_minute?: number;
  @Bool() chatapp_calling_enabled?: boolean;
  @Int({ min: 0 }) included_template_messages?: number;
  @Int({ min: 1, max: 1000, description: 'Phone calls in progress at once (additive)' }) max_concurrent_calls?: number;
  @Int({ min: 0, max: 10000, description: 'Knowledge bases of the account (additive)' }) max_knowledge_bases?: number;
  @Int({ min: 0, max: 1000000, description: 'Documents across the knowledge bases (additive)' })
  max_knowledge_base_documents?: number;
  @Int({ min: 0, description: 'Bytes of documents across the knowledge bases (additive)' })
  max_knowledge_base_bytes?: number;
  @Int({ min: 0, max: 10000, description: 'Campaigns the account may hold (additive)' }) max_campaigns?: number;
}

class CreateUserBody {
  @Str({ required: true, max: 255 }) name!: string;
  @Str({ required: true, max: 255, email: true }) email!: string;
  @Str({ min: 8, max: 255, trim: false }) password?: string;
  @Num({ min: 0, limit: MAX_OPERATOR_AMOUNT }) balance?: number;
  @Obj({ description: 'Partial plan; defaults fill the rest' }) plan?: Record<string, unknown>;
}

class BalanceBody {
  @Num({
    required: true,
    nonZero: true,
    money: true,
    min: -MAX_OPERATOR_AMOUNT,
    max: MAX_OPERATOR_AMOUNT,
    description: 'Non-zero; negative for corrections; at most 4 decimals; at most 1,000,000 either way',
  })
  amount!: number;
  @Str({ required: true, max: 255 }) note!: string;
}

class StatusBody {
  @Bool({ required: true }) disabled!: boolean;
}

@ListFilters()
class UsersQuery extends PageQuery {
  @Str({ max: 255 }) email?: string;
}

function parsePlan(input: unknown, key: string): Partial<Plan> {
  const r = validateDto(PlanBody, input, { partial: true }, key ? `${key}.` : '');
  if (!r.ok) refuse(validationAnswer(r.errors));
  return r.value as Partial<Plan>;
}

@Controller('/api/admin')
export class AdminController {
  constructor(
    @inject(TOKENS.CreateAccount) private readonly createAccount: CreateAccount,
    @inject(TOKENS.AdministerAccounts) private readonly accounts: AdministerAccounts,
    @inject(TOKENS.BalanceService) private readonly balances: BalanceService,
  ) {}

  @Doc({
    summary: 'Create a user with a balance and a plan',
    tag: 'Admin',
    auth: 'admin',
    body: CreateUserBody,
    success: 201,
  })
  @Post('/users')
  async createUser(@Request() req: ExpressRequest) {
    const body = parse(CreateUserBody, req.body);
    const plan = body.plan ? parsePlan(body.plan, 'plan') : {};
    const create = () =>
      this.createAccount.execute({
        name: body.name,
        email: body.email,
        password: body.password ?? null,
        balance: body.balance ?? 0,
        plan,
        requestId: requestIdOf(req),
      });
    return reply(req, create, (result) => {
      if (!result.ok) return answerFor(ACCOUNT_ANSWERS, result.error);
      const { user, apiKey } = result.value;
      return {
        status: 201,
        body: {
          user: presentAdminUser(user),
          api_key: {
            id: apiKey.id,
            name: apiKey.name,
            token: apiKey.token,
            created_at: apiKey.createdAt.toISOString(),
          },
        },
      };
    });
  }

  @Doc({ summary: 'List users', tag: 'Admin', auth: 'admin', query: UsersQuery })
  @Get('/users')
  async listUsers(@Request() req: ExpressRequest) {
    const q = parse(UsersQuery, req.query);
    const page = pageOf(q);
    const result = await this.accounts.list(page, q.email);
    return reply(200, pageEnvelope(result.items.map(presentAdminUser), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Get a user', tag: 'Admin', auth: 'admin' })
  @Get('/users/:id')
  async getUser(@Params({ name: 'id' }) id: string) {
    const result = await this.accounts.get(pathId(id, USER_NOT_FOUND));
    if (!result.ok) refuse(ACCOUNT_ANSWERS, result.error);
    return reply(200, { data: presentAdminUser(result.value) });
  }

  @Doc({ summary: 'Top up or correct a balance', tag: 'Admin', auth: 'admin', body: BalanceBody })
  @Post('/users/:id/balance')
  async adjustBalance(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = pathId(id, USER_NOT_FOUND);
    const body = parse(BalanceBody, req.body);
    return reply(
      req,
      () => this.balances.adjust(userId, body.amount, body.note, requestIdOf(req)),
      (entry) =>
        entry
          ? {
              status: 200,
              body: {
                message: ACCOUNT_SUCCESS.balanceUpdated,
                total_balance: entry.balanceAfter,
                entry: presentLedgerEntry(entry),
              },
            }
          : answerFor(ACCOUNT_ANSWERS, 'user_not_found'),
    );
  }

  @Doc({ summary: 'Change plan fields', tag: 'Admin', auth: 'admin', body: PlanBody })
  @Put('/users/:id/plan')
  async updatePlan(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.accounts.changePlan(pathId(id, USER_NOT_FOUND), () => parsePlan(req.body, ''));
    if (!result.ok) refuse(ACCOUNT_ANSWERS, result.error);
    return reply(200, { message: ACCOUNT_SUCCESS.planUpdated, plan: presentPlan(result.value) });
  }

  @Doc({ summary: 'Disable or enable a user', tag: 'Admin', auth: 'admin', body: StatusBody })
  @Put('/users/:id/status')
  async setStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = pathId(id, USER_NOT_FOUND);
    const body = parse(StatusBody, req.body);
    const result = await this.accounts.setDisabled(userId, body.disabled);
    if (!result.ok) refuse(ACCOUNT_ANSWERS, result.error);
    return reply(200, { message: ACCOUNT_SUCCESS.userUpdated, data: presentAdminUser(result.value) });
  }
}
