// A pager's step: a link, or plain text where there is no page to go to.
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export function PageLink({
  href,
  disabled,
  children,
}: {
  href: string;
  disabled: boolean;
  children: ReactNode;
}) {
  return disabled ? (
    <span className="text-muted">{children}</span>
  ) : (
    <Link to={href} preventScrollReset>
      {children}
    </Link>
  );
}
