import { createHash } from 'node:crypto';
import { Controller, Get, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CurrentAccount, Login, RateLimiter, TOKENS } from '@voiceplane/application';
import { Str } from '../validation';
import { parse, reply } from '../pipeline/responses';
import { refuse, answerFor } from '../pipeline/answers';
import { ACCOUNT_ANSWERS, ACCOUNT_SUCCESS } from './account-answers';
import { principalOf } from '../pipeline/request-context';
import { tooManyBody } from '../pipeline/families';
import { presentMe } from '../presenters/account';
import { Doc } from '../openapi/route-doc';

class LoginBody {
  @Str({ required: true, max: 255, email: true }) email!: string;
  @Str({ required: true, max: 255, trim: false }) password!: string;
}

@Controller('/api/user')
export class AccountController {
  constructor(
    @inject(TOKENS.Login) private readonly login: Login,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiter,
    @inject(TOKENS.CurrentAccount) private readonly account: CurrentAccount,
  ) {}

  @Doc({ summary: 'Obtain a session token', tag: 'Account', auth: 'none', body: LoginBody })
  @Post('/login')
  async postLogin(@Request() req: ExpressRequest) {
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const email = typeof raw.email === 'string' ? raw.email.trim().toLowerCase() : '';
    // The e-mail is hashed into the bucket key: it is counted before it is validated, and any length must fit.
    const decision = await this.limiter.consume([
      {
        key: `login:${createHash('sha256').update(email).digest('base64url')}:${req.ip}`,
        limit: 10,
        windowSeconds: 60,
      },
    ]);
    if (!decision.allowed) {
      const retry = decision.retryAfterSeconds;
      refuse({ status: 429, body: tooManyBody('standard', retry), headers: { 'Retry-After': String(retry) } });
    }
    const body = parse(LoginBody, req.body);
    return reply(
      req,
      () => this.login.execute(body.email, body.password),
      (result) => {
        if (!result.ok) return answerFor(ACCOUNT_ANSWERS, result.error);
        const { token, expiresAt, user } = result.value;
        const session = {
          message: ACCOUNT_SUCCESS.loggedIn,
          token,
          token_type: 'Bearer',
          expires_at: expiresAt.toISOString(),
          user: { id: user.id, name: user.name, email: user.email },
        };
        return { status: 200, body: session };
      },
    );
  }

  @Doc({ summary: 'Revoke the presenting session token', tag: 'Account' })
  @Post('/logout')
  async postLogout(@Request() req: ExpressRequest) {
    return reply(
      req,
      () => this.account.logout(principalOf(req)),
      (result) =>
        result.ok
          ? { status: 200, body: { message: ACCOUNT_SUCCESS.loggedOut } }
          : answerFor(ACCOUNT_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'The authenticated account', tag: 'Account' })
  @Get('/me')
  async getMe(@Request() req: ExpressRequest) {
    const result = await this.account.me(principalOf(req).userId);
    if (!result.ok) refuse(ACCOUNT_ANSWERS, result.error);
    return reply(200, presentMe(result.value));
  }
}
