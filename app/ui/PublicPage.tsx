import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The frame of the public account pages: brand, one card. */
export function PublicPage({
  title,
  children,
  wide,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <main className="public-page d-flex align-items-center py-5">
      <div className="container">
        <div className="row justify-content-center">
          <div className={wide ? "col-lg-8" : "col-md-8 col-lg-5"}>
            <Link to="/" className="d-block text-white text-decoration-none h3 fw-bold mb-3">
              ARC Connect
            </Link>
            <div className="card shadow">
              <div className="card-body p-4">
                <h1 className="h4 mb-3">{title}</h1>
                {children}
              </div>
            </div>
          </div>
        </div>
      </div>
    </main>
  );
}
