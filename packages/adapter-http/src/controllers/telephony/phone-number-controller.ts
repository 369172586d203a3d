import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { E164_PATTERN, NUMBER_COUNTRIES, NumberCountry } from '@voiceplane/domain';
import {
  DeletePhoneNumber,
  PhoneNumberQueries,
  PurchasePhoneNumber,
  RenamePhoneNumber,
  SearchAvailableNumbers,
  TOKENS,
} from '@voiceplane/application';
import { ListFilters, Str } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, validationAnswer, answerFor } from '../../pipeline/answers';
import { principalOf, requestIdOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { presentAvailableNumber, presentPhoneNumber, presentPurchase } from './presenters';
import {
  DELETE_NUMBER_ANSWERS,
  NUMBER_SEARCH_ANSWERS,
  PHONE_NUMBER_NOT_FOUND,
  PURCHASE_ANSWERS,
  RENAME_NUMBER_ANSWERS,
  TELEPHONY_SUCCESS,
} from './telephony-answers';

const CONTAINS_MESSAGE = 'The contains may only contain up to 10 digits.';

@ListFilters()
class NumberSearchQuery {
  @Str({ upper: true, enum: NUMBER_COUNTRIES, description: 'Country (default US)', example: 'GB' })
  country_code?: NumberCountry;

  @Str({
    max: 10,
    pattern: /^[0-9]+$/,
    messages: { type: CONTAINS_MESSAGE, max: CONTAINS_MESSAGE, pattern: CONTAINS_MESSAGE },
    description: '1–10 digits found anywhere in the number',
    example: '7946',
  })
  contains?: string;
}

class PurchaseBody {
  @Str({
    required: true,
    pattern: E164_PATTERN,
    messages: { pattern: 'The {field} must be a valid E.164 phone number.' },
    example: '+14155550134',
  })
  phone_number!: string;
}

/** Famulor's number update: the nickname alone, sent as null (or "") to clear it. */
class NumberUpdateBody {
  @Str({
    nullable: true,
    max: 50,
    description: 'The label shown beside the number; null or "" clears it',
    example: 'Sales line',
  })
  nickname?: string | null;
}

/** Owned numbers, search, purchase and nickname. */
@Controller('/api/user/phone-numbers')
export class PhoneNumberController {
  constructor(
    @inject(TOKENS.PhoneNumberQueries) private readonly numbers: PhoneNumberQueries,
    @inject(TOKENS.SearchAvailableNumbers) private readonly search: SearchAvailableNumbers,
    @inject(TOKENS.PurchasePhoneNumber) private readonly purchase: PurchasePhoneNumber,
    @inject(TOKENS.DeletePhoneNumber) private readonly deleteNumber: DeletePhoneNumber,
    @inject(TOKENS.RenamePhoneNumber) private readonly rename: RenamePhoneNumber,
  ) {}

  @Doc({ summary: 'List owned phone numbers (purchased and SIP), newest first', tag: 'Phone numbers' })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const numbers = await this.numbers.list(principalOf(req).userId);
    return reply(200, { data: numbers.map(presentPhoneNumber) });
  }

  @Doc({ summary: 'Search purchasable numbers (at most 20)', tag: 'Phone numbers', query: NumberSearchQuery })
  @Get('/search')
  async searchNumbers(@Request() req: ExpressRequest) {
    const query = parse(NumberSearchQuery, req.query);
    const found = await this.search.execute(
      principalOf(req).userId,
      query.country_code ?? 'US',
      query.contains ?? null,
    );
    if (!found.ok) refuse(NUMBER_SEARCH_ANSWERS, found.error);
    return reply(200, { data: found.value.map(presentAvailableNumber) });
  }

  @Doc({ summary: 'Buy a number; the first month is charged', tag: 'Phone numbers', body: PurchaseBody, success: 201 })
  @Post('/purchase')
  async buy(@Request() req: ExpressRequest) {
    const body = parse(PurchaseBody, req.body);
    return reply(
      req,
      () => this.purchase.execute(principalOf(req).userId, body.phone_number, requestIdOf(req)),
      (bought) =>
        bought.ok
          ? { status: 201, body: { message: TELEPHONY_SUCCESS.numberPurchased, data: presentPurchase(bought.value) } }
          : answerFor(PURCHASE_ANSWERS, bought.error),
    );
  }

  @Doc({
    summary: "Set or clear a number's nickname (the MCP server's update_phone_number)",
    tag: 'Phone numbers',
    body: NumberUpdateBody,
  })
  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const numberId = pathId(id, PHONE_NUMBER_NOT_FOUND);
    const body = parse(NumberUpdateBody, req.body);
    // Sending nothing is not taken for clearing the name.
    if (!Object.hasOwn(req.body ?? {}, 'nickname'))
      refuse(validationAnswer({ nickname: ['The nickname field must be present.'] }));
    const renamed = await this.rename.execute(principalOf(req).userId, numberId, body.nickname ?? null);
    if (!renamed.ok) refuse(RENAME_NUMBER_ANSWERS, renamed.error);
    return reply(200, { message: TELEPHONY_SUCCESS.numberUpdated, data: presentPhoneNumber(renamed.value) });
  }

  @Doc({
    summary: 'Release a number or delete a SIP trunk (alias DELETE /api/user/phone-numbers/sip-trunks/:id)',
    tag: 'Phone numbers',
  })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.deleteNumber.execute(principalOf(req).userId, pathId(id, PHONE_NUMBER_NOT_FOUND));
    if (!deleted.ok) refuse(DELETE_NUMBER_ANSWERS, deleted.error);
    return reply(200, { message: TELEPHONY_SUCCESS.numberDeleted });
  }
}
