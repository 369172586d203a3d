/** Argument order (details, message) so that both pino and console fit. */
export interface BusLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export const silentLogger: BusLogger = { info() {}, warn() {}, error() {} };
