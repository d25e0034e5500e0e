// Live m:ss countdown for elements with data-expires-at, on the pages React does not hydrate (the
// sign-in and forgotten-password code steps). Progressive enhancement: without JavaScript the
// element keeps its clock-time text. Served as /js/countdown.js (scripts/build-browser.mjs).
// Hydrated pages count down in React instead (CodeExpiry.tsx): this script must never edit
// markup React hydrates.
import { CODE_EXPIRED_TEXT, formatCountdown, secondsLeft } from "./countdown";

document.querySelectorAll<HTMLElement>("[data-expires-at]").forEach((node) => {
  const expiresAt = new Date(node.getAttribute("data-expires-at") ?? "").getTime();
  function tick() {
    const seconds = secondsLeft(expiresAt);
    if (seconds === 0) {
      node.className += " text-danger";
      node.textContent = CODE_EXPIRED_TEXT;
      return;
    }
    node.textContent = "The code expires in ";
    const span = document.createElement("span");
    span.className = "fw-semibold";
    span.setAttribute("data-testid", "countdown");
    span.textContent = formatCountdown(seconds);
    node.appendChild(span);
    setTimeout(tick, 1000);
  }
  tick();
});
