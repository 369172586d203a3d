import { WorkLogger } from '@voiceplane/application';

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly details: Record<string, unknown>;
  readonly message: string;
}

/** Keeps what was logged, for tests that assert an operator would be told. */
export class RecordingLogger implements WorkLogger {
  readonly lines: LogLine[] = [];

  info(details: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'info', details, message });
  }

  warn(details: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'warn', details, message });
  }

  error(details: Record<string, unknown>, message: string): void {
    this.lines.push({ level: 'error', details, message });
  }
}
