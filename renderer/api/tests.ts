import type {
  FailingTestsResponse,
  FlakyTestsResponse,
  TestHistoryResponse,
} from '../../server/contract.ts';
import { api } from './client.ts';

/** GET /api/tests/failing */
export function getFailingTests(
  projectId: number | undefined,
  signal?: AbortSignal,
): Promise<FailingTestsResponse> {
  return api.get('/tests/failing', { projectId }, signal);
}

/** GET /api/health/flaky-tests */
export function getFlakyTests(signal?: AbortSignal): Promise<FlakyTestsResponse> {
  return api.get('/health/flaky-tests', undefined, signal);
}

/** GET /api/tests/history */
export function getTestHistory(
  projectId: number,
  classname: string,
  name: string,
  signal?: AbortSignal,
): Promise<TestHistoryResponse> {
  return api.get('/tests/history', { projectId, classname, name }, signal);
}
