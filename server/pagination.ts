/**
 * The page block of the paginated wire answers (GET /api/ai/history, GET /api/pipelines/failures).
 * A leaf of the contract, so server/contract.ts and server/group-health/contract.ts can both use it
 * without importing each other.
 */

/** Which page an answer is and how many there are. */
export interface Pagination {
  currentPage: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
}
