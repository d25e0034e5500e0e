// A list as the spec draws it (spec 2 §2): search box, sortable headers, pages of 10, "No data
// found". Everything is a link or a GET form, so it works without JavaScript; the loader reads the
// same parameters with lib/listParams.ts. Several lists on one page use different prefixes.
import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { pageCount, withParams } from "~/lib/listParams";
import { SearchForm } from "./SearchForm";

export type Column<R> = {
  key: string;
  label: string;
  sortable?: boolean;
  render?: (row: R) => ReactNode;
  className?: string;
};

/** Where a row leads, and the link's name when its cell's text is not enough. */
export type RowLink = { href: string; label?: string; preventScrollReset?: boolean };

type Props<R> = {
  columns: Column<R>[];
  rows: R[];
  total: number;
  params: { q: string; sort: string; order: "asc" | "desc"; page: number };
  prefix?: string;
  searchPlaceholder?: string;
  rowKey: (row: R) => string;
  /**
   * Where a row leads (spec 2 §2, spec 3 §2.5 "a row click opens ..."): the `rowLinkColumn`
   * cell's content becomes the row's one link, stretched over the whole row (Bootstrap's
   * .stretched-link on a positioned <tr>), so a click anywhere on the row follows it, Tab and
   * Enter too, without JavaScript. The actions cell stays above it with its own controls.
   */
  rowLink?: (row: R) => RowLink | null;
  rowLinkColumn?: string;
  caption?: string;
  actions?: (row: R) => ReactNode;
  emptyText?: string;
};

export function DataTable<R>({
  columns,
  rows,
  total,
  params,
  prefix = "",
  searchPlaceholder = "Search",
  rowKey,
  caption,
  actions,
  emptyText = "No data found",
  rowLink,
  rowLinkColumn,
}: Props<R>) {
  const location = useLocation();
  const pages = pageCount(total);
  const p = (name: string) => `${prefix}${name}`;
  // Clicking a column sorts ascending; clicking it again while ascending sorts descending (spec 2 §4).
  const sortHref = (key: string) =>
    withParams(location.search, {
      [p("sort")]: key,
      [p("order")]: params.sort === key && params.order === "asc" ? "desc" : "asc",
      [p("page")]: null,
    });
  const pageHref = (page: number) =>
    withParams(location.search, { [p("page")]: page === 1 ? null : String(page) });

  return (
    <div>
      <SearchForm
        name={p("q")}
        label={searchPlaceholder}
        defaultValue={params.q}
        reset={[p("page")]}
        className="d-flex gap-2 mb-2 data-table-search"
      />
      <div className="table-responsive">
        <table className="table table-hover align-middle bg-white">
          {caption ? <caption className="visually-hidden">{caption}</caption> : null}
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.className}
                  aria-sort={
                    params.sort === c.key
                      ? params.order === "asc"
                        ? "ascending"
                        : "descending"
                      : undefined
                  }
                >
                  {c.sortable ? (
                    <Link
                      to={sortHref(c.key)}
                      className="text-reset text-decoration-none"
                      preventScrollReset
                    >
                      {c.label}
                      {params.sort === c.key ? (params.order === "asc" ? " ▲" : " ▼") : ""}
                    </Link>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
              {actions ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length + (actions ? 1 : 0)} className="text-center text-muted">
                  {emptyText}
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const link = rowLink?.(row) ?? null;
                return (
                  <tr key={rowKey(row)} className={link ? "row-linked" : undefined}>
                    {columns.map((c) => {
                      const content = c.render
                        ? c.render(row)
                        : String((row as Record<string, unknown>)[c.key] ?? "-") || "-";
                      return (
                        <td key={c.key} className={c.className}>
                          {link && c.key === rowLinkColumn ? (
                            <Link
                              to={link.href}
                              className="stretched-link"
                              aria-label={link.label}
                              preventScrollReset={link.preventScrollReset}
                            >
                              {content}
                            </Link>
                          ) : (
                            content
                          )}
                        </td>
                      );
                    })}
                    {actions ? <td className="row-controls">{actions(row)}</td> : null}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label="Pages" className="d-flex justify-content-between align-items-center">
          <span className="small text-muted">
            Page {params.page} of {pages} ({total})
          </span>
          <ul className="pagination pagination-sm mb-0">
            <li className={`page-item ${params.page <= 1 ? "disabled" : ""}`}>
              <Link
                className="page-link"
                to={pageHref(Math.max(1, params.page - 1))}
                preventScrollReset
              >
                Previous
              </Link>
            </li>
            <li className={`page-item ${params.page >= pages ? "disabled" : ""}`}>
              <Link
                className="page-link"
                to={pageHref(Math.min(pages, params.page + 1))}
                preventScrollReset
              >
                Next
              </Link>
            </li>
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
