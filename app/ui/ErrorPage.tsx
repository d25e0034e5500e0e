import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { STORAGE_FULL_TEXT, STORAGE_FULL_TITLE } from "~/lib/storageFull";

/** The shared error boundary body: 404/403/400/503 (storage full)/500 in words, never a stack trace. */
export function ErrorPage({ homeHref = "/" }: { homeHref?: string }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A refusal's own plain message (e.g. lib/formBody.server.ts), shown under the generic text.
  const reason =
    isRouteErrorResponse(error) &&
    status < 500 &&
    typeof error.data === "string" &&
    error.data.length <= 300 &&
    !/^(Bad Request|Forbidden|Not Found)$/.test(error.data)
      ? error.data
      : null;
  const { title, text } =
    status === 404
      ? {
          title: "OPPS! Page not found",
          text: "The page you are looking for does not exist or was moved.",
        }
      : status === 403
        ? { title: "Access denied", text: "Your role does not give you access to this page." }
        : status === 400 || status === 405
          ? {
              title: "Bad request",
              text: "The request could not be understood. Please go back and try again.",
            }
          : status === 413 || status === 415
            ? {
                title: "The form could not be sent",
                text: reason ?? "Please go back and try again.",
              }
            : status === 503
              ? { title: STORAGE_FULL_TITLE, text: STORAGE_FULL_TEXT }
              : {
                  title: "Something went wrong! Please try again later.",
                  text: "The error was logged.",
                };
  return (
    <div className="container py-5 text-center" data-status={status}>
      <h1 className="h3 mb-3">{title}</h1>
      <p className="text-muted">{text}</p>
      {reason && reason !== text && status === 400 ? <p data-reason>{reason}</p> : null}
      <Link to={homeHref} className="btn btn-primary">
        Go to the start page
      </Link>
    </div>
  );
}

/** The ErrorBoundary of every /app route: the error shows inside the shell. */
export function AppErrorBoundary() {
  return <ErrorPage homeHref="/app" />;
}
