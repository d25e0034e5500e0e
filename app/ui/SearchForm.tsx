import { Form, useLocation } from "@remix-run/react";

/**
 * A search box that is a GET form: it keeps the page's other query parameters (minus `reset`, such
 * as the page number) and replaces `name`. Works without JavaScript.
 */
export function SearchForm({
  name,
  label,
  defaultValue,
  placeholder = label,
  reset = [],
  className = "d-flex gap-2",
}: {
  name: string;
  label: string;
  defaultValue: string;
  placeholder?: string;
  reset?: string[];
  className?: string;
}) {
  const location = useLocation();
  const keep = [...new URLSearchParams(location.search).entries()].filter(
    ([k]) => k !== name && !reset.includes(k),
  );
  return (
    <Form method="get" action={location.pathname} className={className} role="search">
      {keep.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <input
        type="search"
        name={name}
        defaultValue={defaultValue}
        placeholder={placeholder}
        aria-label={label}
        maxLength={100}
        className="form-control form-control-sm"
      />
      <button type="submit" className="btn btn-sm btn-outline-primary">
        Search
      </button>
    </Form>
  );
}
