// Hides the flash messages of a page React does not hydrate after their screen's delay (the
// data-autohide-ms that Flash.tsx renders from app/ui/delays.ts). Served as /js/flash.js.
document.querySelectorAll<HTMLElement>("[data-autohide-ms]").forEach((node) => {
  const delay = Number(node.getAttribute("data-autohide-ms"));
  setTimeout(() => node.classList.replace("d-flex", "d-none"), delay);
});

export {};
