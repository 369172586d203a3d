import { SandboxNumberInventory } from '@voiceplane/adapter-sandbox';
import { numberInventoryContract } from './number-inventory.contract';

// The sandbox leaves ownership to voiceplane's database (the purchase use case checks it first),
// so on its own it keeps offering and selling a number it has already sold.
numberInventoryContract('sandbox', () => new SandboxNumberInventory());
