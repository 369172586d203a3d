/**
 * Tool names in the product's words, by operation (`METHOD /document/path`). Derivation from the path alone reads
 * poorly for many routes (`post_user_chatapp_send_freeform`), so the operations the product has today are named
 * here; an operation missing from the table still gets a derived name (see `toolNameOf`).
 */
const TOOL_NAMES: Record<string, string> = {
  'GET /api/user/me': 'get_account',
  'POST /api/user/logout': 'log_out',
  'GET /api/user/api-keys': 'list_api_keys',
  'POST /api/user/api-keys': 'create_api_key',
  'DELETE /api/user/api-keys/{id}': 'delete_api_key',

  'GET /api/user/assistants': 'list_assistants',
  'GET /api/user/assistants/get': 'list_assistants_detailed',
  'GET /api/user/assistants/outbound': 'list_outbound_assistants',
  'GET /api/user/assistants/languages': 'list_languages',
  'GET /api/user/assistants/voices': 'list_voices',
  'GET /api/user/assistants/models': 'list_models',
  'GET /api/user/assistants/providers': 'list_voice_providers',
  'GET /api/user/assistants/phone-numbers': 'list_assistant_phone_numbers',
  'POST /api/user/assistants/enable-webhook': 'enable_assistant_webhook',
  'POST /api/user/assistants/disable-webhook': 'disable_assistant_webhook',
  'POST /api/user/assistant': 'create_assistant',
  'GET /api/user/assistant/{id}': 'get_assistant',
  'PUT /api/user/assistant/{id}': 'update_assistant',
  'DELETE /api/user/assistant/{id}': 'delete_assistant',
  'POST /api/user/assistant/{id}/activate': 'activate_assistant',
  'POST /api/user/assistant/{id}/deactivate': 'deactivate_assistant',
  'GET /api/user/knowledgebases': 'list_knowledge_bases',
  'GET /api/user/knowledgebases/{id}': 'get_knowledge_base',
  'POST /api/user/knowledgebases': 'create_knowledge_base',
  'PUT /api/user/knowledgebases/{id}': 'update_knowledge_base',
  'DELETE /api/user/knowledgebases/{id}': 'delete_knowledge_base',
  'GET /api/user/knowledgebases/{id}/documents': 'list_knowledge_base_documents',
  'POST /api/user/knowledgebases/{id}/documents': 'add_knowledge_base_document',
  'GET /api/user/knowledgebases/{id}/documents/{document_id}': 'get_knowledge_base_document',
  'PUT /api/user/knowledgebases/{id}/documents/{document_id}': 'update_knowledge_base_document',
  'DELETE /api/user/knowledgebases/{id}/documents/{document_id}': 'delete_knowledge_base_document',
  'GET /api/user/scheduling/event-types': 'list_event_types',

  'GET /api/user/folders': 'list_folders',
  'POST /api/user/folder': 'create_folder',
  'PUT /api/user/folder/{id}': 'update_folder',
  'DELETE /api/user/folder/{id}': 'delete_folder',
  'GET /api/user/labels': 'list_labels',
  'POST /api/user/label': 'create_label',
  'PUT /api/user/label/{id}': 'update_label',
  'DELETE /api/user/label/{id}': 'delete_label',

  'GET /api/user/tools': 'list_mid_call_tools',
  'POST /api/user/tools': 'create_mid_call_tool',
  'GET /api/user/tools/{id}': 'get_mid_call_tool',
  'PUT /api/user/tools/{id}': 'update_mid_call_tool',
  'DELETE /api/user/tools/{id}': 'delete_mid_call_tool',
  'POST /api/user/tools/{id}/render': 'render_mid_call_tool',
  'POST /api/user/tools/{id}/test': 'test_mid_call_tool',

  'GET /api/user/phone-numbers': 'list_phone_numbers',
  'GET /api/user/phone-numbers/search': 'search_phone_numbers',
  'POST /api/user/phone-numbers/purchase': 'purchase_phone_number',
  'DELETE /api/user/phone-numbers/{id}': 'release_phone_number',
  'GET /api/user/phone-numbers/sip-trunks': 'list_sip_trunks',
  'POST /api/user/phone-numbers/sip-trunks': 'create_sip_trunk',
  'GET /api/user/phone-numbers/sip-trunks/{id}': 'get_sip_trunk',
  'PUT /api/user/phone-numbers/sip-trunks/{id}': 'update_sip_trunk',

  'POST /api/user/make_call': 'make_call',
  'GET /api/user/calls': 'list_calls',
  'GET /api/user/calls/{id}': 'get_call',
  'GET /api/user/calls/{id}/recording': 'get_call_recording',
  'DELETE /api/user/calls/{id}': 'delete_call',
  'PUT /api/user/phone-numbers/{id}': 'update_phone_number',

  'GET /api/user/chatapp/senders': 'list_senders',
  'POST /api/user/chatapp/senders': 'create_sender',
  'GET /api/user/chatapp/senders/{id}': 'get_sender',
  'PUT /api/user/chatapp/senders/{id}': 'update_sender',
  'GET /api/user/chatapp/senders/{sender_id}/templates': 'list_sender_templates',
  'POST /api/user/chatapp/senders/{sender_id}/templates': 'create_message_template',
  'GET /api/user/chatapp/templates': 'list_message_templates',
  'POST /api/user/chatapp/send': 'send_template_message',
  'POST /api/user/chatapp/send-freeform': 'send_freeform_message',
  'GET /api/user/chatapp/messages/{message_sid}': 'get_message',
  'GET /api/user/chatapp/session-status': 'get_session_status',
  'POST /api/user/chatapp/voice/request': 'request_call_permission',
  'GET /api/user/chatapp/voice/permission': 'get_call_permission',
  'POST /api/user/chatapp/voice/call': 'place_chatapp_call',
  'GET /api/user/chatapp/voice/webhook': 'get_voice_webhook',
  'PUT /api/user/chatapp/voice/webhook': 'set_voice_webhook',

  'GET /api/user/automate/templates': 'list_automation_templates',
  'GET /api/user/automate/templates/{key}': 'get_automation_template',
  'POST /api/user/automate/templates/{key}': 'apply_automation_template',
  'GET /api/user/automate/flows': 'list_automations',
  'GET /api/user/automate/flows/{id}': 'get_automation',
  'PUT /api/user/automate/flows/{id}': 'update_automation',
  'DELETE /api/user/automate/flows/{id}': 'delete_automation',
  'POST /api/user/automate/flows/{id}/enable': 'enable_automation',
  'POST /api/user/automate/flows/{id}/disable': 'disable_automation',
  'POST /api/user/automate/flows/{id}/restore': 'restore_automation_version',
  'GET /api/user/automate/flows/{id}/versions': 'list_automation_versions',
  'GET /api/user/automate/flows/{id}/runs': 'list_automation_runs',
  'POST /api/user/automate/flows/{id}/runs/{run_id}/retry': 'retry_automation_run',
  'GET /api/user/automate/tables': 'list_data_tables',
  'POST /api/user/automate/tables': 'create_data_table',
  'GET /api/user/automate/tables/{id}': 'get_data_table',
  'DELETE /api/user/automate/tables/{id}': 'delete_data_table',
  'GET /api/user/automate/tables/{id}/rows': 'list_data_table_rows',
  'POST /api/user/automate/tables/{id}/rows': 'create_data_table_row',
  'PUT /api/user/automate/tables/{id}/rows/{row_id}': 'update_data_table_row',
  'DELETE /api/user/automate/tables/{id}/rows/{row_id}': 'delete_data_table_row',
  'GET /api/user/automate/connections': 'list_connections',
  'POST /api/user/automate/connections': 'create_connection',
  'PUT /api/user/automate/connections/{id}': 'update_connection',
  'DELETE /api/user/automate/connections/{id}': 'delete_connection',
  'POST /api/user/automate/connections/{id}/check': 'check_connection',

  'GET /api/user/conversations': 'list_conversations',
  'GET /api/user/conversations/{uuid}': 'get_conversation',
  'GET /api/user/conversations/{uuid}/messages': 'list_conversation_messages',
  'POST /api/user/conversations/{uuid}/disable-ai': 'disable_conversation_ai',
  'POST /api/user/conversations/{uuid}/enable-ai': 'enable_conversation_ai',

  'POST /api/user/webhooks/test': 'send_test_webhook',
  'GET /api/user/webhooks/deliveries': 'list_webhook_deliveries',
  'GET /api/user/webhooks/deliveries/{id}': 'get_webhook_delivery',
  'POST /api/user/webhooks/deliveries/{id}/replay': 'replay_webhook_delivery',
  'GET /api/user/webhooks/signing-secret': 'get_webhook_signing_secret',
  'POST /api/user/webhooks/signing-secret/rotate': 'rotate_webhook_signing_secret',

  'GET /api/user/billing/balance': 'get_balance',
  'GET /api/user/billing/ledger': 'list_ledger_entries',
  'GET /api/user/billing/top-ups': 'list_top_ups',
  'POST /api/user/billing/top-ups': 'create_top_up',
  'GET /api/user/billing/top-ups/{id}': 'get_top_up',
  'GET /api/user/billing/auto-recharge': 'get_auto_recharge',
  'PUT /api/user/billing/auto-recharge': 'set_auto_recharge',

  'GET /api/sandbox/chatapp/outbox': 'sandbox_list_outbox',
  'POST /api/sandbox/chatapp/inbound-message': 'sandbox_receive_message',
  'POST /api/sandbox/chatapp/messages/{message_sid}/status': 'sandbox_set_message_status',
  'POST /api/sandbox/chatapp/expire-window': 'sandbox_expire_window',
  'POST /api/sandbox/chatapp/permission-reply': 'sandbox_reply_to_call_permission',
  'PUT /api/sandbox/chatapp/senders/{id}/status': 'sandbox_set_sender_status',
  'PUT /api/sandbox/chatapp/templates/{id}/status': 'sandbox_set_template_status',
  'POST /api/sandbox/conversations/{uuid}/end-now': 'sandbox_end_conversation',
  'POST /api/sandbox/calls/{id}/answer': 'sandbox_answer_call',
  'POST /api/sandbox/calls/{id}/say': 'sandbox_say_in_call',
  'POST /api/sandbox/calls/{id}/finish': 'sandbox_finish_call',
  'POST /api/sandbox/automate/runs/{run_id}/resume-now': 'sandbox_resume_run',
  'PUT /api/sandbox/automate/connections/{id}/status': 'sandbox_set_connection_status',
  'POST /api/sandbox/billing/top-ups/{id}/complete': 'sandbox_complete_top_up',
  'POST /api/sandbox/faults': 'sandbox_inject_fault',
};

const VERBS: Record<string, string> = { post: 'create', put: 'update', patch: 'update', delete: 'delete' };

/**
 * The tool name of an operation: the table's, else derived from the path (`GET …/{id}` → `get_…`, a GET list →
 * `list_…`, otherwise the method's verb), so a route added later is a tool without touching this file.
 */
export function toolNameOf(method: string, path: string): string {
  const named = TOOL_NAMES[`${method.toUpperCase()} ${path}`];
  if (named) return named;
  const segments = path.replace(/^\/api\/(user\/)?/, '').split('/');
  const words = segments.filter((s) => !s.startsWith('{')).join('_').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
  const verb = method === 'get' ? (segments[segments.length - 1].startsWith('{') ? 'get' : 'list') : VERBS[method] ?? method;
  return `${verb}_${words}`.slice(0, 64);
}
