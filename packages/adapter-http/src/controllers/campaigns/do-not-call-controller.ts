import { Controller, Delete, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { DO_NOT_CALL_LIMITS, FieldErrors, hasFieldErrors, normalizeLeadPhone } from '@voiceplane/domain';
import { DoNotCallEntry, ManageDoNotCall, NewDoNotCallEntry, TOKENS } from '@voiceplane/application';
import { Arr, Int, ListFilters, Str, validateDto } from '../../validation';
import { pathId, reply } from '../../pipeline/responses';
import { answerFor, refuse, validationAnswer, Answer, AnswerTable } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';

const tag = 'Do-not-call list';
const PHONE_TEXT_MAX = 64;
const PER_PAGE_DEFAULT = 15;
const NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };
const ANSWERS: AnswerTable<'not_found' | 'list_full'> = {
  not_found: NOT_FOUND,
  list_full: {
    status: 422,
    body: {
      message: `The do-not-call list can hold at most ${DO_NOT_CALL_LIMITS.numbersPerAccount} numbers.`,
    },
  },
};

export class DoNotCallBody {
  @Str({
    max: PHONE_TEXT_MAX,
    description: 'E.164; spaces, -, ., ( ) removed, a leading 00 read as +. Required unless phone_numbers is sent',
    example: '+4915112345678',
  })
  phone_number?: string;
  @Arr(
    { kind: 'string', max: PHONE_TEXT_MAX },
    { max: DO_NOT_CALL_LIMITS.numbersPerRequest, description: 'Up to 1,000 numbers at once, read as phone_number' },
  )
  phone_numbers?: string[];
  @Str({ max: DO_NOT_CALL_LIMITS.reasonMax, example: 'asked not to be called' }) reason?: string;
}

@ListFilters()
export class DoNotCallQuery {
  @Str({ max: 512, description: 'Opaque cursor from a previous page' }) cursor?: string;
  @Int({ min: 1, max: 100 }) per_page?: number;
  @Str({ max: PHONE_TEXT_MAX, description: 'Exact number (normalised as on add)' }) phone_number?: string;
}

const invalidPhone = (key: string) => `The ${key.replaceAll('_', ' ')} must be a valid E.164 phone number.`;

function parseAdd(input: unknown): NewDoNotCallEntry[] {
  const shaped = validateDto(DoNotCallBody, input);
  if (!shaped.ok) refuse(validationAnswer(shaped.errors));
  const b = shaped.value;
  const errors: FieldErrors = {};
  const reason = b.reason ?? null;
  const entries: NewDoNotCallEntry[] = [];
  if (b.phone_number === undefined && b.phone_numbers === undefined)
    errors.phone_number = ['The phone number field is required.'];
  if (b.phone_number !== undefined) {
    const phoneNumber = normalizeLeadPhone(b.phone_number);
    if (phoneNumber === null) errors.phone_number = [invalidPhone('phone_number')];
    else entries.push({ phoneNumber, reason });
  }
  (b.phone_numbers ?? []).forEach((raw, i) => {
    const phoneNumber = normalizeLeadPhone(raw);
    // Item keys are literal (`phone_numbers.3`), as every list field's.
    if (phoneNumber === null)
      errors[`phone_numbers.${i}`] = [`The phone_numbers.${i} must be a valid E.164 phone number.`];
    else entries.push({ phoneNumber, reason });
  });
  if (hasFieldErrors(errors)) refuse(validationAnswer(errors));
  return entries;
}

/** Cursors are opaque: base64url of the last id shown. */
const encodeCursor = (id: number | null) =>
  id === null ? null : Buffer.from(JSON.stringify({ i: id })).toString('base64url');

function decodeCursor(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  try {
    const { i } = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { i?: unknown };
    if (Number.isSafeInteger(i) && (i as number) > 0) return i as number;
  } catch {
    // Falls through to the validation answer.
  }
  refuse(validationAnswer({ cursor: ['The selected cursor is invalid.'] }));
}

const present = (e: DoNotCallEntry) => ({
  id: e.id,
  phone_number: e.phoneNumber,
  reason: e.reason,
  created_at: e.createdAt.toISOString(),
});

/** The account's do-not-call list: no call the platform places itself goes to a listed number. */
@Controller('/api/user/do-not-call')
export class DoNotCallController {
  constructor(@inject(TOKENS.ManageDoNotCall) private readonly list: ManageDoNotCall) {}

  @Doc({ summary: 'List the do-not-call numbers, newest first (cursor pages)', tag, query: DoNotCallQuery })
  @Get('/')
  async index(@Request() req: ExpressRequest) {
    const shaped = validateDto(DoNotCallQuery, req.query ?? {});
    if (!shaped.ok) refuse(validationAnswer(shaped.errors));
    const q = shaped.value;
    const phoneNumber = q.phone_number === undefined ? undefined : normalizeLeadPhone(q.phone_number);
    if (phoneNumber === null) refuse(validationAnswer({ phone_number: [invalidPhone('phone_number')] }));
    const perPage = q.per_page ?? PER_PAGE_DEFAULT;
    const before = decodeCursor(q.cursor);
    const page = await this.list.list(principalOf(req).userId, { phoneNumber }, before, perPage);
    return reply(200, {
      data: page.items.map(present),
      next_cursor: encodeCursor(page.next),
      // Pages go forward only: a client keeps the cursors it came by to go back.
      prev_cursor: null,
      per_page: perPage,
    });
  }

  @Doc({
    summary: 'Add a number (or up to 1,000 with phone_numbers); one already listed is not an error',
    tag,
    body: DoNotCallBody,
    success: 201,
  })
  @Post('/')
  async add(@Request() req: ExpressRequest) {
    const entries = parseAdd(req.body);
    return reply(
      req,
      () => this.list.add(principalOf(req).userId, entries),
      (added) =>
        added.ok
          ? { status: 201, body: { message: 'Added to the do-not-call list.', added: added.value } }
          : answerFor(ANSWERS, added.error),
    );
  }

  @Doc({ summary: 'Remove a number from the do-not-call list (leads it closed stay blacklisted)', tag })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const removed = await this.list.remove(principalOf(req).userId, pathId(id, NOT_FOUND));
    if (!removed.ok) refuse(ANSWERS, removed.error);
    return reply(200, { message: 'Removed from the do-not-call list.' });
  }
}
