// Live m:ss countdown for elements with data-expires-at (the sign-in code step). Progressive
// enhancement: without JavaScript the element keeps its clock-time text. Served as
// /js/countdown.js (scripts/build-browser.mjs).
document.querySelectorAll<HTMLElement>("[data-expires-at]").forEach((node) => {
  const expiresAt = new Date(node.getAttribute("data-expires-at") ?? "").getTime();
  function tick() {
    const seconds = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
    if (seconds === 0) {
      node.className += " text-danger";
      node.textContent = node.getAttribute("data-expired-text");
      return;
    }
    const s = seconds % 60;
    node.textContent = "The code expires in ";
    const span = document.createElement("span");
    span.className = "fw-semibold";
    span.setAttribute("data-testid", "countdown");
    span.textContent = Math.floor(seconds / 60) + ":" + (s < 10 ? "0" : "") + s;
    node.appendChild(span);
    setTimeout(tick, 1000);
  }
  tick();
});

export {};
