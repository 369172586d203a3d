import { ToolRefusal } from '@voiceplane/domain';
import { ToolCallRefusal, ToolPreviewRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { TOOL_MESSAGES } from './tool-messages';

export const TOOL_NOT_FOUND: Answer = { status: 404, body: { message: TOOL_MESSAGES.notFound } };

/** Tool management, render and test. */
export const TOOL_ANSWERS: AnswerTable<ToolRefusal | ToolPreviewRefusal> = {
  tool_not_found: TOOL_NOT_FOUND,
  plan_limit: ({ limit }) => ({ status: 422, body: { message: TOOL_MESSAGES.planLimit(limit) } }),
  call_not_found: { status: 422, body: validationBody('standard', { call_id: ['The selected call id is invalid.'] }) },
  automation_tool: { status: 422, body: { message: TOOL_MESSAGES.automationPreview } },
};

/** The voice runtime's tool calls. */
export const TOOL_CALL_ANSWERS: AnswerTable<ToolCallRefusal> = {
  call_not_found: { status: 404, body: { message: 'Call not found' } },
  call_ended: { status: 409, body: { message: 'Call already ended.' } },
  tool_not_found: TOOL_NOT_FOUND,
};

/** The `message` of each successful tool write. */
export const TOOL_SUCCESS = {
  created: 'Tool created successfully',
  updated: 'Tool updated successfully',
  deleted: 'Tool deleted successfully',
} as const;
