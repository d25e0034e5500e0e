import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

export type ShellData = {
  user: {
    firstName: string;
    lastName: string;
    email: string;
    role: string;
    isAssociatedClinic: boolean;
    /** The user's photo (/photos/{id}), or null: the avatar shows their initials. */
    photoUrl: string | null;
  };
  badges: { unreadMessages: number; pendingInvitations: number };
  version: string;
  year: number;
};

/**
 * Which entries this user sees (spec 1 §2.3). The shell only draws them; the roles' rules decide
 * (domain/roles.ts shellNav).
 */
export type ShellNav = {
  dashboard: boolean;
  notifications: boolean;
  patients: boolean;
  /** Where the Invitations entry goes, or null for no entry. */
  invitations: string | null;
  helpCenter: boolean;
  careSiteSettings: boolean;
};

// The provider's pages the footer links to (spec 1 §2.3).
const FOOTER_LINKS = [
  { label: "Contact Us", href: "https://www.abmrc.com/contact-us/" },
  { label: "Privacy Policy", href: "https://www.abmrc.com/privacy-policy/" },
  { label: "Terms of Use", href: "https://www.abmrc.com/terms-of-use/" },
];

export function AppShell({
  shell,
  nav,
  heading,
  children,
}: {
  shell: ShellData;
  nav: ShellNav;
  heading: string;
  children: ReactNode;
}) {
  return (
    <div className="app-shell">
      <SideBar shell={shell} nav={nav} />
      <div className="app-main">
        <TopBar shell={shell} nav={nav} heading={heading} />
        <main className="app-content p-3 p-lg-4">{children}</main>
        <Footer version={shell.version} year={shell.year} />
      </div>
    </div>
  );
}

function SideBar({ shell, nav }: { shell: ShellData; nav: ShellNav }) {
  const { invitations } = nav;
  return (
    <nav className="app-sidebar p-3" aria-label="Main">
      <Link to="/app" className="brand d-block mb-4">
        ARC Connect
      </Link>
      <ul className="nav flex-column gap-1">
        {nav.dashboard ? <Entry to="/app" end label="Dashboard" /> : null}
        {nav.notifications ? <Entry to="/app/notificationSummary" label="Notifications" /> : null}
        {nav.patients ? <Entry to="/app/Reports" label="Patients" /> : null}
        <Entry
          to="/app/chat"
          label="Messages"
          badge={shell.badges.unreadMessages}
          badgeLabel="unread"
        />
        {invitations ? (
          <Entry
            to={invitations}
            label="Invitations"
            badge={shell.badges.pendingInvitations}
            badgeLabel="pending"
          />
        ) : null}
      </ul>
      {nav.helpCenter ? (
        <Link to="/app/help" className="btn btn-light btn-sm mt-4 w-100">
          Help Center
        </Link>
      ) : null}
    </nav>
  );
}

function Entry({
  to,
  label,
  end,
  badge,
  badgeLabel,
}: {
  to: string;
  label: string;
  end?: boolean;
  badge?: number;
  badgeLabel?: string;
}) {
  return (
    <li className="nav-item">
      <NavLink to={to} end={end} className="nav-link">
        <span>{label}</span>
        {badge ? (
          <span
            className="badge rounded-pill text-bg-warning"
            aria-label={`${badge} ${badgeLabel}`}
          >
            {badge}
          </span>
        ) : null}
      </NavLink>
    </li>
  );
}

function TopBar({ shell, nav, heading }: { shell: ShellData; nav: ShellNav; heading: string }) {
  const { user } = shell;
  const menu = useDismissableMenu();
  return (
    <header className="app-topbar d-flex align-items-center justify-content-between px-3 px-lg-4 py-2">
      <h1 className="h4 mb-0">{heading}</h1>
      <details className="menu" ref={menu}>
        <summary className="d-flex align-items-center gap-2" aria-label="Account menu">
          <span className="d-none d-md-inline text-end small">
            <span className="d-block fw-semibold">
              {user.firstName} {user.lastName}
            </span>
            <span className="text-muted">{user.email}</span>
          </span>
          <Avatar user={user} />
        </summary>
        <ul className="dropdown-menu shadow">
          {nav.careSiteSettings ? (
            <li>
              <Link className="dropdown-item" to="/app/caresitesettingdashboard">
                Care Site settings
              </Link>
            </li>
          ) : null}
          <li>
            <h6 className="dropdown-header">User profile</h6>
          </li>
          <li>
            <Link className="dropdown-item" to="/app/settings">
              Edit user profile
            </Link>
          </li>
          <li>
            <Link className="dropdown-item" to="/app/PasswordAndSecurity">
              Settings
            </Link>
          </li>
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className="dropdown-item">
                Log Out
              </button>
            </Form>
          </li>
        </ul>
      </details>
    </header>
  );
}

/** The user's photo when they have one, else their initials (issue 20 item 12b). */
function Avatar({ user }: { user: ShellData["user"] }) {
  if (user.photoUrl) {
    return <img className="avatar" src={user.photoUrl} alt="" width={36} height={36} />;
  }
  const initials = `${user.firstName[0] ?? ""}${user.lastName[0] ?? ""}`.toUpperCase();
  return (
    <span className="avatar" aria-hidden>
      {initials}
    </span>
  );
}

/**
 * The avatar menu is a <details>, so it opens and closes without JavaScript. With it, Escape closes
 * the menu and gives the focus back to its button, and a click outside closes it (issue 20 item
 * 12d), as a menu is expected to behave.
 */
function useDismissableMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // A client navigation keeps the shell: the menu closes once its entry has been followed.
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location]);
  useEffect(() => {
    const close = (focus: boolean) => {
      const menu = ref.current;
      if (!menu?.open) return;
      menu.open = false;
      if (focus) menu.querySelector("summary")?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, []);
  return ref;
}

function Footer({ version, year }: { version: string; year: number }) {
  return (
    <footer className="border-top bg-white px-3 px-lg-4 py-2 small text-muted d-flex flex-wrap gap-3 justify-content-between">
      <span>
        © {year} ARC Connect · v{version}
      </span>
      <span className="d-flex gap-3">
        {FOOTER_LINKS.map((l) => (
          <a key={l.label} href={l.href} target="_blank" rel="noreferrer">
            {l.label}
          </a>
        ))}
      </span>
    </footer>
  );
}
