import type { Clock } from '../ports';
import type { WorkLogger } from '../events';
import type { InboundMediaRepository, MediaStore } from './inbound-media';

const BATCH = 500;
const DAY_MS = 24 * 3_600_000;

/**
 * Inbound media is not kept for ever: files older than the retention period are removed (their
 * messages say so in `media_error`), and the file of every media row that is gone — expired here,
 * or deleted with its message, conversation or account — is deleted from the store. The list of
 * files to delete lives in the database, so a sweep cut short by a restart resumes where it was.
 */
export class MediaRetention {
  constructor(
    private readonly media: InboundMediaRepository,
    private readonly store: MediaStore,
    private readonly retentionDays: number,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {}

  /** One pass; answers how many files were deleted from the store. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.retentionDays * DAY_MS);
    const note = `the file was deleted after ${this.retentionDays} days`;
    while ((await this.media.expireCreatedBefore(cutoff, note, BATCH)) === BATCH);
    let deleted = 0;
    for (;;) {
      const ids = await this.media.deletedIds(BATCH);
      const done: string[] = [];
      for (const id of ids) {
        try {
          await this.store.delete(id);
          done.push(id);
        } catch (e) {
          // Left listed: the next sweep tries again.
          this.log.warn({ err: e, media_id: id }, 'a deleted media file could not be removed from the store');
        }
      }
      await this.media.forgetDeleted(done);
      deleted += done.length;
      if (ids.length < BATCH || done.length === 0) return deleted;
    }
  }
}
