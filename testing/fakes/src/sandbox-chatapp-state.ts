import {
  SandboxChatappState,
  SandboxFaultArming,
  SandboxOutboxItem,
  SandboxSentMessage,
} from '@voiceplane/application';

/** The sandbox chat app's state in memory (see the sandbox chat-app state contract); message sids are not joined in. */
export class InMemorySandboxChatappState implements SandboxChatappState {
  private readonly sent: SandboxSentMessage[] = [];
  private faults: Array<{ kind: string; userId: number; targetId: number | null; remaining: number }> = [];

  async accept(message: SandboxSentMessage, faultKind: string): Promise<'sent' | 'faulted'> {
    const mine = this.faults.filter((f) => f.kind === faultKind && f.userId === message.userId && f.remaining > 0);
    const hit =
      mine.find((f) => f.targetId !== null && f.targetId === message.senderId) ?? mine.find((f) => f.targetId === null);
    if (hit) {
      hit.remaining -= 1;
      return 'faulted';
    }
    this.sent.push({ ...message, at: new Date(message.at) });
    return 'sent';
  }

  async wasSent(userId: number, providerMessageId: string): Promise<boolean> {
    return this.sent.some((m) => m.userId === userId && m.providerMessageId === providerMessageId);
  }

  async armFault(a: SandboxFaultArming): Promise<number> {
    this.faults = this.faults.filter((f) => !(f.userId === a.userId && f.kind === a.kind && f.targetId === a.targetId));
    if (a.count > 0) this.faults.push({ kind: a.kind, userId: a.userId, targetId: a.targetId, remaining: a.count });
    return a.count;
  }

  async outbox(
    userId: number,
    filter: { readonly senderId?: number; readonly to?: string },
    limit: number,
  ): Promise<SandboxOutboxItem[]> {
    return this.sent
      .filter(
        (m) =>
          m.userId === userId &&
          (filter.senderId === undefined || m.senderId === filter.senderId) &&
          (filter.to === undefined || m.to === filter.to),
      )
      .reverse()
      .slice(0, limit)
      .map((m) => ({
        messageSid: null,
        senderId: m.senderId,
        to: m.to,
        type: m.type,
        body: m.body,
        mediaUrl: m.mediaUrl,
        templateId: null,
        at: new Date(m.at),
      }));
  }
}
