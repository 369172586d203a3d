import { Plan } from './plan';

/** An account owner: who pays for calls and owns every other record. */
export interface User {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly disabled: boolean;
  readonly balance: number;
  readonly plan: Plan;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
