import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { KnowledgeBaseChanges, ManageKnowledgeBases, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, validationAnswer, answerFor } from '../../pipeline/answers';
import { ApiRequest, principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { validateDto } from '../../validation';
import {
  CreateDocumentBody,
  CreateKnowledgeBaseBody,
  documentFrom,
  UpdateDocumentBody,
  UpdateKnowledgeBaseBody,
} from './document-body';
import {
  DOCUMENT_NOT_FOUND,
  KNOWLEDGE_BASE_ANSWERS,
  KNOWLEDGE_BASE_NOT_FOUND,
  KNOWLEDGE_BASE_SUCCESS,
} from './knowledge-base-answers';
import { presentDocument, presentKnowledgeBase } from './presenters';

const tag = 'Knowledge bases';
const KB = '/api/user/knowledgebases';

/** Knowledge bases and their documents, as the MCP server and the OpenClaw plugin call them; ownership and limits in ManageKnowledgeBases. */
@Controller(KB)
export class KnowledgeBaseController {
  constructor(@inject(TOKENS.ManageKnowledgeBases) private readonly knowledgeBases: ManageKnowledgeBases) {}

  @Doc({ summary: 'Knowledge bases of the account', tag })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    return reply(200, { data: (await this.knowledgeBases.list(principalOf(req).userId)).map(presentKnowledgeBase) });
  }

  @Doc({ summary: 'Create a knowledge base', tag, body: CreateKnowledgeBaseBody, success: 201 })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateKnowledgeBaseBody, req.body);
    const p = principalOf(req);
    return reply(
      req,
      () => this.knowledgeBases.create(p.userId, p.plan, { name: body.name, description: body.description ?? null }),
      (created) =>
        created.ok
          ? { status: 201, body: { data: presentKnowledgeBase(created.value) } }
          : answerFor(KNOWLEDGE_BASE_ANSWERS, created.error),
    );
  }

  @Doc({ summary: 'One knowledge base', tag })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const kb = await this.knowledgeBases.get(principalOf(req).userId, pathId(id, KNOWLEDGE_BASE_NOT_FOUND));
    if (!kb.ok) refuse(KNOWLEDGE_BASE_ANSWERS, kb.error);
    return reply(200, { data: presentKnowledgeBase(kb.value) });
  }

  /** A missing knowledge base answers 404 even when the body is invalid too. */
  @Doc({ summary: 'Rename or describe a knowledge base', tag, body: UpdateKnowledgeBaseBody })
  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const kb = await this.knowledgeBases.update(principalOf(req).userId, pathId(id, KNOWLEDGE_BASE_NOT_FOUND), () =>
      changesOf(UpdateKnowledgeBaseBody, req.body),
    );
    if (!kb.ok) refuse(KNOWLEDGE_BASE_ANSWERS, kb.error);
    return reply(200, { data: presentKnowledgeBase(kb.value) });
  }

  @Doc({ summary: 'Delete a knowledge base, its documents and their passages', tag })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const removed = await this.knowledgeBases.delete(principalOf(req).userId, pathId(id, KNOWLEDGE_BASE_NOT_FOUND));
    if (!removed.ok) refuse(KNOWLEDGE_BASE_ANSWERS, removed.error);
    return reply(200, { message: KNOWLEDGE_BASE_SUCCESS.knowledgeBaseDeleted });
  }

  @Doc({ summary: 'Documents of a knowledge base, oldest first', tag })
  @Get('/:id/documents')
  async documentList(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const docs = await this.knowledgeBases.documentsOf(principalOf(req).userId, pathId(id, KNOWLEDGE_BASE_NOT_FOUND));
    if (!docs.ok) refuse(KNOWLEDGE_BASE_ANSWERS, docs.error);
    return reply(200, { data: docs.value.map(presentDocument) });
  }

  /** The knowledge base is looked up before the body, so a stranger's id is 404 whatever was sent. */
  @Doc({
    tag,
    body: CreateDocumentBody,
    success: 201,
    summary:
      'Add a document (JSON for text and website; multipart/form-data with `file` for PDF, DOCX, TXT, Markdown, HTML); processed by a worker',
  })
  @Post('/:id/documents')
  async addDocument(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const p = principalOf(req);
    const documentOf = () => documentFrom(req.body, (req as ApiRequest).ctx.upload);
    const knowledgeBaseId = pathId(id, KNOWLEDGE_BASE_NOT_FOUND);
    return reply(
      req,
      () => this.knowledgeBases.addDocument(p.userId, p.plan, knowledgeBaseId, documentOf),
      (added) =>
        added.ok
          ? { status: 201, body: { data: presentDocument(added.value) } }
          : answerFor(KNOWLEDGE_BASE_ANSWERS, added.error),
    );
  }

  @Doc({ summary: 'One document with its processing status', tag })
  @Get('/:id/documents/:document_id')
  async document(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'document_id' }) documentId: string,
  ) {
    const doc = await this.knowledgeBases.document(
      principalOf(req).userId,
      pathId(id, KNOWLEDGE_BASE_NOT_FOUND),
      pathId(documentId, DOCUMENT_NOT_FOUND),
    );
    if (!doc.ok) refuse(KNOWLEDGE_BASE_ANSWERS, doc.error);
    return reply(200, { data: presentDocument(doc.value) });
  }

  /** A missing document answers 404 even when the body is invalid too. */
  @Doc({ summary: 'Rename or describe a document', tag, body: UpdateDocumentBody })
  @Put('/:id/documents/:document_id')
  async renameDocument(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'document_id' }) documentId: string,
  ) {
    const kbId = pathId(id, KNOWLEDGE_BASE_NOT_FOUND);
    const docId = pathId(documentId, DOCUMENT_NOT_FOUND);
    const doc = await this.knowledgeBases.renameDocument(principalOf(req).userId, kbId, docId, () =>
      changesOf(UpdateDocumentBody, req.body),
    );
    if (!doc.ok) refuse(KNOWLEDGE_BASE_ANSWERS, doc.error);
    return reply(200, { data: presentDocument(doc.value) });
  }

  @Doc({ summary: 'Delete a document and its passages', tag })
  @Delete('/:id/documents/:document_id')
  async removeDocument(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'document_id' }) documentId: string,
  ) {
    const removed = await this.knowledgeBases.deleteDocument(
      principalOf(req).userId,
      pathId(id, KNOWLEDGE_BASE_NOT_FOUND),
      pathId(documentId, DOCUMENT_NOT_FOUND),
    );
    if (!removed.ok) refuse(KNOWLEDGE_BASE_ANSWERS, removed.error);
    return reply(200, { message: KNOWLEDGE_BASE_SUCCESS.documentDeleted });
  }
}

/** The name and description a PUT changes; absent keys stay. */
function changesOf(
  shape: typeof UpdateKnowledgeBaseBody | typeof UpdateDocumentBody,
  raw: unknown,
): KnowledgeBaseChanges {
  const body = validateDto(shape, raw, { partial: true });
  if (!body.ok) refuse(validationAnswer(body.errors));
  return { name: body.value.name, description: body.value.description };
}
