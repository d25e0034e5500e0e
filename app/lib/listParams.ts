// The query parameters of a server-side list (search box, sortable headers, pages of 10), read the
// same way by every list so links built by ui/DataTable.tsx and loaders agree.
export const PAGE_SIZE = 10;

export type ListParams<S extends string> = {
  q: string;
  sort: S;
  order: "asc" | "desc";
  page: number;
};

/**
 * Reads `${prefix}q`, `${prefix}sort`, `${prefix}order` and `${prefix}page`. An unknown sort column
 * falls back to the default; pages start at 1.
 */
export function readListParams<S extends string>(
  url: URL | string,
  options: { sorts: readonly S[]; defaultSort: S; defaultOrder?: "asc" | "desc"; prefix?: string },
): ListParams<S> {
  const params = new URL(url).searchParams;
  const p = options.prefix ?? "";
  const sort = params.get(`${p}sort`) as S | null;
  const order = params.get(`${p}order`);
  const page = Number.parseInt(params.get(`${p}page`) ?? "1", 10);
  return {
    q: (params.get(`${p}q`) ?? "").trim().slice(0, 100),
    sort: sort && options.sorts.includes(sort) ? sort : options.defaultSort,
    order: order === "desc" || order === "asc" ? order : (options.defaultOrder ?? "asc"),
    page: Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1,
  };
}

export function pageCount(total: number) {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function skipFor(page: number) {
  return (page - 1) * PAGE_SIZE;
}

/** The query string `search` with some parameters set, or removed (null or ""): "?…", "?" when empty. */
export function withParams(search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === "") params.delete(k);
    else params.set(k, v);
  }
  const text = params.toString();
  return text ? `?${text}` : "?";
}
