/** Whose operation is running, so a fault armed by one account never hits another's. */
export interface FaultScope {
  readonly accountId: number;
  /** The phone number the operation concerns, when there is one. */
  readonly phoneNumberId: number | null;
}

export interface FaultArming {
  readonly accountId: number;
  /** Only operations on this phone number fail; null: any of the account's operations. */
  readonly targetId?: number | null;
  /** How many operations fail. */
  readonly count: number;
  /** Operations allowed to succeed first (tests use it to fail one exact step). */
  readonly after?: number;
}

/** The error a sandbox provider throws for an armed fault. */
export class SandboxFault extends Error {
  constructor(readonly kind: string) {
    super(`Sandbox fault injected (${kind}).`);
    this.name = 'SandboxFault';
  }
}

interface Armed {
  readonly accountId: number;
  readonly targetId: number | null;
  remaining: number;
  skip: number;
}

/**
 * "The next N operations fail", per account and optionally per phone number.
 * Arming the same scope again replaces what was left.
 */
export class ArmedFaults {
  private armed: Armed[] = [];

  constructor(private readonly kind: string) {}

  /** Returns how many operations will fail. */
  arm(a: FaultArming): number {
    const targetId = a.targetId ?? null;
    this.armed = this.armed.filter((x) => !(x.accountId === a.accountId && x.targetId === targetId));
    if (a.count > 0) this.armed.push({ accountId: a.accountId, targetId, remaining: a.count, skip: a.after ?? 0 });
    return a.count;
  }

  /** Throws when an armed fault claims this operation. */
  check(scope: FaultScope | null): void {
    if (!scope) return;
    // A fault aimed at this very number is used before an account-wide one.
    const hit =
      this.armed.find(
        (x) => x.accountId === scope.accountId && x.targetId !== null && x.targetId === scope.phoneNumberId,
      ) ?? this.armed.find((x) => x.accountId === scope.accountId && x.targetId === null);
    if (!hit) return;
    if (hit.skip > 0) {
      hit.skip -= 1;
      return;
    }
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.armed = this.armed.filter((x) => x !== hit);
    throw new SandboxFault(this.kind);
  }

  /** Faults still armed for an account (all scopes). */
  remaining(accountId: number): number {
    return this.armed.filter((x) => x.accountId === accountId).reduce((n, x) => n + x.remaining, 0);
  }
}
