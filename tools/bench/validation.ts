/**
 * Validation of the two largest request bodies — the assistant create body with every field set
 * and the tool create body — by the class-validator engine (class-transformer coercion, then
 * class-validator constraints). Target: the full assistant body in ≤ 0.2 ms. The figures of the
 * hand-written engine it replaced, measured in the same runs, are in docs/benchmarks-history.md; that engine was
 * kept in this bench until then (commit history of tools/bench/lib/legacy-validation.ts).
 *   npx tsc -b && node tools/dist/bench/validation.js        (BENCH_ITERATIONS tunes the run)
 */
import { validateDto } from '@voiceplane/adapter-http/dist/validation';
import { CreateAssistantBody } from '@voiceplane/adapter-http/dist/controllers/assistants/assistant-body';
import { CreateToolBody } from '@voiceplane/adapter-http/dist/controllers/tools/tool-body';

const ASSISTANT = {
  name: '  Reception desk  ',
  type: 'outbound',
  mode: 'pipeline',
  timezone: 'Europe/Berlin',
  initial_message: 'Hello, this is the front desk of Acme. How can I help?',
  system_prompt: 'You are a friendly receptionist. '.repeat(40),
  knowledgebase_mode: null,
  reengagement_prompt: 'Are you still there?',
  voice_mail_message: 'Please call us back.',
  endpoint_type: 'vad',
  ambient_sound: 'office',
  webhook_url: 'https://hooks.example.com/post-call',
  conversation_ended_webhook_url: '',
  voice_id: '12',
  language_id: 1,
  llm_model_id: '3',
  multimodal_model_id: null,
  chat_llm_fallback_id: 4,
  knowledgebase_id: '',
  folder_id: '7',
  phone_number_id: 9,
  synthesizer_provider_id: 2,
  transcriber_provider_id: '2',
  secondary_language_ids: [2, '3', 4],
  label_ids: ['5', 6, 7, 8],
  tool_ids: [11, '12', 13],
  tools: [
    { type: 'end_call', data: { description: 'Hang up' } },
    { type: 'call_transfer', phone_number: '+14155551234' },
  ],
  post_call_schema: [
    { name: 'summary', type: 'string', description: 'One sentence' },
    { name: 'satisfied', type: 'bool' },
    { name: 'callback_in_days', type: 'integer', description: '' },
  ],
  turn_detection_threshold: '0.5',
  voice_stability: 0.6,
  voice_similarity: 0.75,
  speech_speed: '1.1',
  llm_temperature: 0.3,
  max_duration: '600',
  max_silence_duration: 30,
  max_initial_silence_duration: null,
  ringing_time: 20,
  reengagement_interval: 15,
  endpoint_sensitivity: 2.5,
  interrupt_sensitivity: '1.5',
  min_interrupt_words: 2,
  ambient_sound_volume: 0.4,
  conversation_inactivity_timeout: 30,
  tts_emotion_enabled: '1',
  allow_interruptions: true,
  fillers: 'false',
  record: 1,
  enable_noise_cancellation: true,
  wait_for_customer: '0',
  end_call_on_voicemail: true,
  is_webhook_active: 'true',
  send_webhook_only_on_completed: false,
  include_recording_in_webhook: 0,
  post_call_evaluation: true,
  conversation_ended_retrigger: false,
  filler_config: {
    positive: ['Great!', 'Sure.'],
    negative: ['Oh no.'],
    question: ['Let me check.'],
    neutral: ['Okay.'],
  },
  variables: { company: 'Acme', city: 'Berlin' },
};

const TOOL = {
  name: 'lookup_order',
  description: 'Looks an order up by its number',
  endpoint: 'https://api.example.com/orders/{order_id}?lang={{language}}',
  method: 'post',
  type: 'http',
  body_format: 'json',
  timeout: '15',
  headers: [
    { name: 'Authorization', value: 'Bearer {{api_token}}' },
    { name: 'X-Tenant', value: 'acme' },
  ],
  static_fields: [{ key: 'source', value: 'voice' }, { key: 'channel' }],
  schema: [
    { name: 'order_id', type: 'string', description: 'The order number the customer reads out', required: true },
    { name: 'quantity', type: 'number', description: 'How many items are affected', required: '0' },
  ],
};

/** The production default. */
const POLICY = { requireHttps: false, allowPrivate: false };

type Validate = () => { ok: boolean };

interface Figures {
  /** Median wall-clock µs per validation over 20 batches. */
  readonly wall: number;
  /** Median CPU µs (user + system) per validation: less sensitive to neighbours on a shared machine. */
  readonly cpu: number;
}

function measure(label: string, validate: Validate, iterations: number): Figures {
  const first = validate();
  if (!first.ok) throw new Error(`${label}: the body does not validate: ${JSON.stringify(first)}`);
  for (let i = 0; i < Math.min(2000, iterations); i++) validate();
  // Medians of 20 batches, so one garbage collection or a neighbour's burst does not decide the figure.
  const batch = Math.max(1, Math.floor(iterations / 20));
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let b = 0; b < 20; b++) {
    const start = process.hrtime.bigint();
    const startCpu = process.cpuUsage();
    for (let i = 0; i < batch; i++) validate();
    const used = process.cpuUsage(startCpu);
    wall.push(Number(process.hrtime.bigint() - start) / batch / 1000);
    cpu.push((used.user + used.system) / batch);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[10];
  return { wall: median(wall), cpu: median(cpu) };
}

const show = (f: Figures) => `${f.wall.toFixed(1).padStart(6)} µs (cpu ${f.cpu.toFixed(1).padStart(6)})`;

function main(): void {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 20000);
  const rows: [string, Validate][] = [
    ['assistant create, every field', () => validateDto(CreateAssistantBody, ASSISTANT)],
    ['tool create, every field', () => validateDto(CreateToolBody, TOOL, { targetPolicy: POLICY })],
  ];
  console.log(`median µs per validation, wall clock (cpu time), ${iterations} iterations each`);
  for (const [label, validate] of rows)
    console.log(`${label.padEnd(30)} ${show(measure(label, validate, iterations))}`);
}

main();
