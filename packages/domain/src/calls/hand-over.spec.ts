import { handedOverConfig, handOverTarget } from './hand-over';
import { RuntimeConfig, TransferAssistant } from './runtime-config';

const speech = { voice: null } as unknown as TransferAssistant['speech'];
const billing = {
  assistant: { id: 12, name: 'Billing' },
  variables: { team: 'billing', customer_name: 'Ann' },
  tools: [{ id: 9, name: 'check_invoice' }],
  builtin_tools: [{ type: 'end_call', data: { description: null } }],
  speech,
} as unknown as TransferAssistant;
const config = {
  direction: 'outbound',
  channel: 'phone',
  customer_phone: '+14155551234',
  assistant_phone: null,
  sip: null,
  assistant: { id: 11, name: 'Front desk' },
  variables: { customer_name: 'Ann' },
  tools: [],
  builtin_tools: [],
  transfer_assistants: [billing],
} as unknown as RuntimeConfig;

describe('assistant hand-over', () => {
  it('targets only an assistant the call carries; unknown and foreign ids are none', () => {
    expect(handOverTarget(config, 12)).toBe(billing);
    expect(handOverTarget(config, 13)).toBeNull();
    expect(handOverTarget({}, 12)).toBeNull();
  });

  it('the target takes the assistant, variables, tools and voice; the line and the targets stay', () => {
    expect(handedOverConfig(config, billing)).toEqual({
      ...config,
      assistant: billing.assistant,
      variables: billing.variables,
      tools: billing.tools,
      builtin_tools: billing.builtin_tools,
      speech,
      transfer_assistants: [billing],
    });
  });
});
