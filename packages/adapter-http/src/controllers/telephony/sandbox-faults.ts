import type { Container } from 'inversify';

export interface FaultRequest {
  readonly userId: number;
  /** Optional id the fault is aimed at; it must be one of the caller's own resources. */
  readonly targetId: number | null;
  /** The same for kinds whose targets have text ids (`automation_rollback`: an `aut_…` id). */
  readonly targetRef: string | null;
  readonly count: number;
}

/** Arms a fault for the caller; `not_found` when the target is not one of the caller's resources. */
export type FaultArmer = (request: FaultRequest) => Promise<{ readonly remaining: number } | 'not_found'>;

/**
 * The fault kinds the sandbox fault route (`POST /api/sandbox/faults`) knows, registered by the
 * capability that owns each provider. A kind registered without an armer exists but its provider
 * is a real one, so arming it answers 404; an unregistered kind is a 422.
 */
export class SandboxFaults {
  private readonly kinds = new Map<string, FaultArmer | null>();
  private readonly textTargets = new Set<string>();

  /** The one registry of a container, created on first use by whichever module asks first. */
  static in(container: Container): SandboxFaults {
    if (!container.isBound(SandboxFaults)) container.bind(SandboxFaults).toConstantValue(new SandboxFaults());
    return container.get(SandboxFaults);
  }

  /** `textTargets`: the kind's `target_id` is a text id (`targetRef`), not an integer. */
  register(kind: string, armer: FaultArmer | null, options: { readonly textTargets?: boolean } = {}): void {
    if (this.kinds.has(kind)) throw new Error(`Sandbox fault kind "${kind}" is registered twice.`);
    this.kinds.set(kind, armer);
    if (options.textTargets) this.textTargets.add(kind);
  }

  hasTextTargets(kind: string): boolean {
    return this.textTargets.has(kind);
  }

  /** undefined: unknown kind; null: known, but its provider is not the sandbox. */
  armerOf(kind: string): FaultArmer | null | undefined {
    return this.kinds.get(kind);
  }
}
