import {
  CASE_MAX_PAGE_SIZE,
  CASE_PAGE_SIZE,
  CASE_SORTS,
  CASE_STATE_FILTERS,
  type CaseListQuery,
  type CaseSort,
} from '../../../common/schemas/cases';

const DEFAULTS: CaseListQuery = {
  status: 'open',
  queue: 'all',
  tier: 'all',
  assigned_to: 'anyone',
  sort: 'priority',
  dir: 'asc',
  page: 1,
  page_size: CASE_PAGE_SIZE,
};

function oneOf<T extends string>(choices: readonly T[], value: string | null, fallback: T): T {
  return choices.includes(value as T) ? (value as T) : fallback;
}

/**
 * The list's query from the address bar, so a link (the digest's `?queue=unproven`), a reload or
 * Back keeps the filters, search, order and page; anything unknown falls back to the default.
 */
export function caseListQueryOf(params: URLSearchParams): CaseListQuery {
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('page_size'));
  const assignedTo = params.get('assigned_to') ?? '';
  const q = (params.get('q') ?? '').trim();
  return {
    ...DEFAULTS,
    status: oneOf(CASE_STATE_FILTERS, params.get('status'), DEFAULTS.status),
    queue: oneOf(['all', 'verified', 'unproven'] as const, params.get('queue'), DEFAULTS.queue),
    tier: oneOf(['all', 'urgent', 'elevated'] as const, params.get('tier'), DEFAULTS.tier),
    assigned_to: /^(anyone|nobody|[1-9]\d{0,9})$/.test(assignedTo) ? assignedTo : DEFAULTS.assigned_to,
    sort: oneOf<CaseSort>(CASE_SORTS, params.get('sort'), DEFAULTS.sort),
    dir: oneOf(['asc', 'desc'] as const, params.get('dir'), DEFAULTS.dir),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    page_size:
      Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= CASE_MAX_PAGE_SIZE
        ? pageSize
        : CASE_PAGE_SIZE,
    ...(q ? { q: q.slice(0, 200) } : {}),
  };
}

/** The query as address-bar parameters, defaults left out to keep links short. */
export function paramsOf(query: CaseListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '' && DEFAULTS[key as keyof CaseListQuery] !== value)
      params.set(key, String(value));
  }
  return params;
}
