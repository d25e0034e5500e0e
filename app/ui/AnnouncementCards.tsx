// The announcement cards of the staff dashboards (spec 2 §1): a feedback survey, tutorials under
// Resources, news on social media. Their links are the installation's (ANNOUNCE_* in
// app/lib/env.server.ts, given to every /app page by the shell's loader); an empty one hides its
// card, all empty hide the block.
import { Link, useRouteLoaderData } from "@remix-run/react";

export type AnnouncementLinks = {
  survey: string | null;
  tutorials: string | null;
  news: string | null;
};

const CARDS = [
  {
    key: "survey",
    kicker: "Feedback",
    title: "Feedback survey",
    text: "Tell us how ARC Connect works for you and what would make it better.",
    action: "Take the survey",
  },
  {
    key: "tutorials",
    kicker: "Resources",
    title: "Tutorials",
    text: "Learn ARC Connect step by step: dashboards, invitations, reports.",
    action: "View tutorials",
  },
  {
    key: "news",
    kicker: "News",
    title: "News on social media",
    text: "Follow us for product news, updates and events.",
    action: "Follow us",
  },
] as const;

/** The cards for the links the shell's loader carries (none when the block is switched off). */
export function AnnouncementCards() {
  const links = useRouteLoaderData<{ announcements?: AnnouncementLinks }>(
    "routes/app",
  )?.announcements;
  const cards = CARDS.filter((card) => links?.[card.key]);
  if (!links || cards.length === 0) return null;
  return (
    <section aria-label="Announcements" className="row g-3 mt-1 mb-3">
      {cards.map((card) => {
        const href = links[card.key]!;
        return (
          <div key={card.key} className="col-md-4">
            <div className="card h-100">
              <div className="card-body d-flex flex-column">
                <div className="text-muted small text-uppercase">{card.kicker}</div>
                <h2 className="h6 card-title">{card.title}</h2>
                <p className="card-text small flex-grow-1">{card.text}</p>
                {href.startsWith("/") ? (
                  <Link to={href} className="card-link">
                    {card.action}
                  </Link>
                ) : (
                  <a href={href} className="card-link" target="_blank" rel="noopener noreferrer">
                    {card.action}
                  </a>
                )}
              </div>
            </div>
          </div>
        );
      })}
    </section>
  );
}
