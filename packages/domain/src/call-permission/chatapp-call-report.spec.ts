import {
  applyChatappCallEvent,
  callForReport,
  ChatappCallCandidate,
  ChatappCallEvent,
  openChatappCallReport,
} from './chatapp-call-report';

const T0 = new Date('2030-05-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const connect = (s: number, id = 'wacid.A'): ChatappCallEvent => ({
  metaCallId: id,
  event: 'connect',
  at: at(s),
  status: null,
  duration: null,
});
const terminate = (s: number, extra: Partial<ChatappCallEvent> = {}): ChatappCallEvent => ({
  metaCallId: 'wacid.A',
  event: 'terminate',
  at: at(s),
  status: 'completed',
  duration: null,
  ...extra,
});

describe('a chat-app call report', () => {
  it('takes connect and terminate once each, in either order', () => {
    const opened = openChatappCallReport(7, connect(5));
    expect(opened).toEqual({
      callId: 7,
      metaCallId: 'wacid.A',
      connectAt: at(5),
      terminateAt: null,
      duration: null,
      status: null,
    });
    const ended = applyChatappCallEvent(opened, terminate(65));
    expect(ended).toEqual({
      changed: true,
      next: { ...opened, terminateAt: at(65), status: 'completed', duration: 60 },
    });
    expect(applyChatappCallEvent(ended.next, terminate(90, { status: 'failed' }))).toEqual({
      changed: false,
      next: ended.next,
    });
    expect(applyChatappCallEvent(ended.next, connect(70))).toEqual({ changed: false, next: ended.next });

    const late = openChatappCallReport(8, terminate(65, { duration: 58 }));
    expect(late).toEqual({
      callId: 8,
      metaCallId: 'wacid.A',
      connectAt: null,
      terminateAt: at(65),
      duration: 58,
      status: 'completed',
    });
    expect(applyChatappCallEvent(late, connect(5)).next).toEqual({ ...late, connectAt: at(5) });
    // Without the chat app's duration, the seconds between the two.
    expect(applyChatappCallEvent(openChatappCallReport(9, terminate(65)), connect(5)).next.duration).toBe(60);
  });

  it('ignores an event of another chat-app call id', () => {
    const opened = openChatappCallReport(7, connect(5));
    expect(applyChatappCallEvent(opened, connect(6, 'wacid.B'))).toEqual({ changed: false, next: opened });
  });
});

describe('the call a first event belongs to', () => {
  const candidate = (
    callId: number,
    status: ChatappCallCandidate['status'],
    createdS: number,
    finishedS: number | null = null,
  ): ChatappCallCandidate => ({
    callId,
    status,
    createdAt: at(createdS),
    finishedAt: finishedS === null ? null : at(finishedS),
  });

  it('is the newest call open when it happened, or ended shortly before', () => {
    expect(callForReport([candidate(1, 'completed', 0, 30), candidate(2, 'ringing', 40)], at(50))).toBe(2);
    expect(callForReport([candidate(1, 'completed', 0, 30)], at(30 + 9 * 60))).toBe(1);
    expect(callForReport([candidate(3, 'queued', 0)], at(1))).toBe(3);
  });

  it('is none for calls ended long before, queued after it, or no call at all', () => {
    expect(callForReport([candidate(1, 'completed', 0, 30)], at(30 + 11 * 60))).toBeNull();
    expect(callForReport([candidate(2, 'queued', 200)], at(50))).toBeNull();
    expect(callForReport([], at(50))).toBeNull();
  });
});
