import { EndedCall, postCallPayload } from './post-call';

const call: EndedCall = {
  id: 4812,
  assistantId: 101,
  customerPhone: '+14155551234',
  assistantPhone: '+14155550000',
  duration: 87,
  status: 'completed',
  extractedVariables: { status: true, summary: 'Booked a demo for Thursday.' },
  inputVariables: { customer_name: 'Ann' },
  transcript: [
    { role: 'assistant', content: 'Hello Ann, this is Acme.', at: '2026-03-01T10:00:03.000Z' },
    { role: 'customer', content: 'Hi!', at: '2026-03-01T10:00:05.000Z' },
  ],
  recordingUrl: null,
  createdAt: new Date('2026-03-01T10:00:00.000Z'),
  finishedAt: new Date('2026-03-01T10:01:27.000Z'),
};

describe('post_call payload', () => {
  it('has the documented keys in order, recording included (null when nothing was recorded)', () => {
    const payload = postCallPayload(call, true);
    expect(JSON.stringify(payload)).toBe(
      JSON.stringify({
        id: 4812,
        assistant_id: 101,
        customer_phone: '+14155551234',
        assistant_phone: '+14155550000',
        duration: 87,
        status: 'completed',
        extracted_variables: { status: true, summary: 'Booked a demo for Thursday.' },
        input_variables: { customer_name: 'Ann' },
        transcript: 'AI: Hello Ann, this is Acme.\nCustomer: Hi!',
        recording_url: null,
        created_at: '2026-03-01T10:00:00.000Z',
        finished_at: '2026-03-01T10:01:27.000Z',
        lead: null,
        campaign: null,
      }),
    );
  });

  it('leaves the recording_url key out when recordings are not included', () => {
    const payload = postCallPayload({ ...call, recordingUrl: 'https://r.example/4812.mp3' }, false);
    expect(Object.keys(payload)).not.toContain('recording_url');
    expect(postCallPayload({ ...call, recordingUrl: 'https://r.example/4812.mp3' }, true).recording_url).toBe(
      'https://r.example/4812.mp3',
    );
  });
});
