import { token } from '../shared/token';
import type { CallPermissionRepository } from './ports';

export const CALL_PERMISSION_TOKENS = {
  CallPermissionRepository: token<CallPermissionRepository>('CallPermissionRepository'),
} as const;
