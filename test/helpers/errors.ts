import { expect } from 'vitest';
import { type ErrorCode, ErrorResponse } from '../../src/common/schemas/common';

/** A failure answer: its status, its machine-readable code and its message, and nothing else. */
export function expectError(
  response: { status: number; body: unknown },
  status: number,
  code: ErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ success: false, code, message, ...extra });
  expect(ErrorResponse.safeParse(response.body).success, 'matches the shared ErrorResponse').toBe(true);
}
