import { ProviderWatch } from './provider-watch';

describe('quiet providers', () => {
  const limits = { deafSpeechMs: 1500, deafWaitMs: 5000, muteMs: 20_000 };
  let failed: string[];
  let watch: ProviderWatch;
  beforeEach(() => {
    jest.useFakeTimers();
    failed = [];
    watch = new ProviderWatch(limits, (what) => failed.push(what));
  });
  afterEach(() => {
    watch.stop();
    jest.useRealTimers();
  });

  it('takes a transcriber for deaf when 1.5 s of speech got no word within 5 s, across turns', () => {
    watch.customerSpeaking(0, true);
    watch.customerSpeaking(1000, false);
    jest.advanceTimersByTime(60_000);
    expect(failed).toEqual([]); // 1 s of speech: too little to judge
    watch.customerSpeaking(61_000, true);
    watch.customerSpeaking(61_600, false);
    jest.advanceTimersByTime(4999);
    expect(failed).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(failed).toEqual(['stt_error']);
  });

  it('is satisfied by any word, and waits while the customer speaks again', () => {
    watch.customerSpeaking(0, true);
    watch.customerSpeaking(2000, false);
    jest.advanceTimersByTime(3000);
    watch.transcribed();
    jest.advanceTimersByTime(10_000);
    watch.customerSpeaking(13_000, true);
    watch.customerSpeaking(15_000, false);
    jest.advanceTimersByTime(3000);
    watch.customerSpeaking(18_000, true); // speaking again: the timer waits for the end of this speech
    jest.advanceTimersByTime(10_000);
    expect(failed).toEqual([]);
  });

  it('counts words that came back before the VAD called the end of the speech', () => {
    watch.customerSpeaking(0, true);
    watch.transcribed(); // interim and final results while the VAD still hears speech
    watch.customerSpeaking(3000, false);
    jest.advanceTimersByTime(60_000);
    expect(failed).toEqual([]);
  });

  it('takes the voice for mute after 20 s of thinking without audio, never while a tool runs', () => {
    watch.assistantState('thinking');
    watch.toolStarted();
    jest.advanceTimersByTime(60_000);
    expect(failed).toEqual([]);
    watch.toolFinished();
    jest.advanceTimersByTime(19_999);
    expect(failed).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(failed).toEqual(['tts_error']);
  });

  it('is satisfied once the assistant speaks, and says nothing after it was stopped', () => {
    watch.assistantState('thinking');
    jest.advanceTimersByTime(5000);
    watch.assistantState('speaking');
    jest.advanceTimersByTime(60_000);
    watch.assistantState('thinking');
    watch.stop();
    jest.advanceTimersByTime(60_000);
    expect(failed).toEqual([]);
  });
});
