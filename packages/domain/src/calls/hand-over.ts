import { RuntimeConfig, TransferAssistant } from './runtime-config';

/**
 * The assistant an `assistant_transfer` hands the call to: only one the call's configuration
 * carries (an assistant of the same account that existed when the call started); anything else,
 * another account's assistant included, is no target at all.
 */
export function handOverTarget(
  config: Pick<RuntimeConfig, 'transfer_assistants'>,
  assistantId: number,
): TransferAssistant | null {
  return config.transfer_assistants?.find((t) => t.assistant.id === assistantId) ?? null;
}

/**
 * The call's configuration once `target` has taken it over: the line and the call stay, the
 * assistant, its variables (the call's over the target's), tools, built-ins and voice change; the
 * hand-over targets stay, so the new assistant can hand the call on.
 */
export function handedOverConfig(config: RuntimeConfig, target: TransferAssistant): RuntimeConfig {
  return {
    ...config,
    assistant: target.assistant,
    variables: target.variables,
    tools: target.tools,
    builtin_tools: target.builtin_tools,
    speech: target.speech,
    transfer_assistants: config.transfer_assistants,
  };
}
