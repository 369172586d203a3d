/** Money is USD with at most 4 decimals; arithmetic happens in integer ten-thousandths. */
const SCALE = 10_000;

export const toUnits = (amount: number): number => Math.round(amount * SCALE);
export const fromUnits = (units: number): number => units / SCALE;

export function hasAtMostFourDecimals(amount: number): boolean {
  return Math.abs(amount * SCALE - Math.round(amount * SCALE)) < 1e-6;
}
