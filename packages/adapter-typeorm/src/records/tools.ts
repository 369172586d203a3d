import {
  bigint,
  boolean,
  integer,
  jsonb,
  ownedByUser,
  ownerListIndex,
  primaryKey,
  serialKey,
  stampedNow,
  timestamptz,
  varchar,
} from './columns';
import { record } from './record';

/** Mid-call tools (SharedReferences) and their recorded invocations (Tools). */

export interface ToolRecord {
  id: string;
  user_id: string;
  name: string;
  description: string;
  type: string;
  endpoint: string | null;
  method: string | null;
  body_format: string;
  timeout: number;
  headers: unknown[];
  static_fields: unknown[];
  schema: unknown[];
  automation_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const tools = record<ToolRecord>({
  name: 'tools',
  columns: {
    id: serialKey('tools'),
    user_id: bigint(),
    name: varchar(64),
    description: varchar(255),
    type: { ...varchar(16), default: 'http' },
    endpoint: varchar(2048, true),
    method: varchar(8, true),
    body_format: { ...varchar(8), default: 'json' },
    timeout: { ...integer(), default: 10 },
    headers: { ...jsonb(), default: [] },
    static_fields: { ...jsonb(), default: [] },
    schema: { ...jsonb(), default: [] },
    automation_id: varchar(40, true),
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('tools')],
  indices: [ownerListIndex('tools')],
});

/**
 * One mid-call tool invocation as stored (the application's `ToolInvocationRecord` is the port's view of it).
 * `call_id` and `tool_id` carry no foreign key on purpose (see the Tools migration). A knowledge-base
 * search names its knowledge base instead of a tool, and may belong to a conversation instead of a call.
 */
export interface StoredToolInvocationRecord {
  id: string;
  call_id: string | null;
  conversation_id: string | null;
  user_id: string;
  tool_id: string | null;
  knowledge_base_id: string | null;
  name: string;
  invocation_id: string | null;
  ok: boolean | null;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  result: unknown;
  created_at: Date;
  completed_at: Date | null;
}

export const toolInvocations = record<StoredToolInvocationRecord>({
  name: 'tool_invocations',
  columns: {
    id: primaryKey('tool_invocations', varchar(40)),
    call_id: bigint(true),
    conversation_id: bigint(true),
    user_id: bigint(),
    tool_id: bigint(true),
    knowledge_base_id: bigint(true),
    name: varchar(64),
    invocation_id: varchar(128, true),
    ok: boolean(true),
    status_code: integer(true),
    duration_ms: integer(true),
    error: varchar(32, true),
    result: jsonb(true),
    created_at: timestamptz(),
    completed_at: timestamptz(true),
  },
  foreignKeys: [ownedByUser('tool_invocations')],
  checks: [
    { name: 'tool_invocations_owner_ck', expression: '(call_id IS NULL) <> (conversation_id IS NULL)' },
    { name: 'tool_invocations_subject_ck', expression: '(tool_id IS NULL) <> (knowledge_base_id IS NULL)' },
  ],
  indices: [
    {
      name: 'tool_invocations_runtime_id_uq',
      columns: ['call_id', 'invocation_id'],
      unique: true,
      where: 'invocation_id IS NOT NULL',
    },
    { name: 'tool_invocations_call_idx', columns: ['call_id', 'created_at'] },
    {
      name: 'tool_invocations_conversation_idx',
      columns: ['conversation_id', 'created_at'],
      where: 'conversation_id IS NOT NULL',
    },
  ],
});

export const toolRecords = [tools, toolInvocations];
