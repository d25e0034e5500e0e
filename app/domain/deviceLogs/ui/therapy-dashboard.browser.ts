// The therapy dashboard's extras (spec 3 §2.7); the page works without them.
// - Right-click on a graph point opens the Add Annotation dialog at that point.
// - Ticking a therapy updates the selection at once (the Update selection button stays for
//   keyboards and for browsers without JavaScript).
// - 'Adding Graph ....' shows for 1.5 s on Add Graph to Report.
// - The Add button of an annotation is disabled while the text is blank.
// - The date range's Apply and Clear are disabled while both dates are empty or a date shows an
//   error (spec 3 §4), the errors checked as the user types by the server's own rule (§5).
// - The six-step guided tour: starts 100 ms after the first visit (and from How to use).
// Served as /js/therapy-dashboard.js (scripts/build-browser.mjs).
import { dashboardRangeErrors } from "../dashboard";

const STEPS = [
  "The logo takes you back to the start page.",
  "Choose the dates of the therapies to look at.",
  "The therapy list: tick therapies to show only those; open a row for its details.",
  "The graph: one point per cycle. Right-click a point to annotate it.",
  "Add Graph to Report keeps what the graph shows now.",
  "Generate Report lists the kept graphs and downloads the PDF.",
];
const SEEN_KEY = "therapyDashboardTourSeen";

function submitWith(form: HTMLFormElement, intent: string) {
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "intent";
  field.value = intent;
  form.appendChild(field);
  form.submit();
}

function annotateOnRightClick(chart: HTMLElement) {
  chart.addEventListener("contextmenu", (event) => {
    const target = event.target;
    const point =
      target instanceof Element && target.closest ? target.closest(".graph-point") : null;
    if (!point) return;
    event.preventDefault();
    const y = Math.round(Number(point.getAttribute("data-y")) * 10) / 10;
    window.location.assign(
      (chart.getAttribute("data-annotate-href") ?? "")
        .replace("x=X", "x=" + encodeURIComponent(point.getAttribute("data-x") ?? ""))
        .replace("y=Y", "y=" + encodeURIComponent(String(y))),
    );
  });
}

/** Shows `message` under a date field (the server's markup: is-invalid and #<id>-error). */
function showFieldError(input: HTMLInputElement, message: string | null) {
  const id = input.id + "-error";
  let feedback = document.getElementById(id);
  if (message && !feedback) {
    feedback = document.createElement("div");
    feedback.id = id;
    feedback.className = "invalid-feedback d-block";
    input.insertAdjacentElement("afterend", feedback);
  }
  if (feedback) {
    feedback.textContent = message ?? "";
    feedback.classList.toggle("d-none", !message);
  }
  input.classList.toggle("is-invalid", Boolean(message));
  if (message) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", id);
  } else {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
}

function guardDateRange(form: HTMLFormElement) {
  const from = form.querySelector<HTMLInputElement>('input[name="startDate"]');
  const to = form.querySelector<HTMLInputElement>('input[name="endDate"]');
  const apply = form.querySelector<HTMLButtonElement>('[data-role="range-apply"]');
  const clear = form.querySelector<HTMLAnchorElement>('[data-role="range-clear"]');
  if (!from || !to || !apply) return;
  const bounds = {
    first: form.getAttribute("data-first") || null,
    last: form.getAttribute("data-last") || null,
    outside: form.getAttribute("data-outside") ?? "",
  };
  const update = () => {
    const errors = dashboardRangeErrors({ from: from.value, to: to.value }, bounds);
    showFieldError(from, errors.from);
    showFieldError(to, errors.to);
    const off = (from.value === "" && to.value === "") || Boolean(errors.from || errors.to);
    apply.disabled = off;
    if (clear) {
      clear.classList.toggle("disabled", off);
      if (off) {
        clear.setAttribute("aria-disabled", "true");
        clear.setAttribute("tabindex", "-1");
      } else {
        clear.removeAttribute("aria-disabled");
        clear.removeAttribute("tabindex");
      }
    }
  };
  from.addEventListener("input", update);
  to.addEventListener("input", update);
  from.addEventListener("change", update);
  to.addEventListener("change", update);
  if (clear) {
    clear.addEventListener("click", (event) => {
      if (clear.getAttribute("aria-disabled") === "true") event.preventDefault();
    });
  }
  form.addEventListener("submit", (event) => {
    if (apply.disabled) event.preventDefault();
  });
  update();
}

function startTour(root: HTMLElement) {
  const overlay = document.createElement("div");
  overlay.className = "tour-overlay";
  const card = document.createElement("div");
  card.className = "tour-card card shadow";
  card.setAttribute("role", "dialog");
  card.setAttribute("aria-label", "Guided tour");
  document.body.appendChild(overlay);
  document.body.appendChild(card);
  let step = 0;
  let focused: HTMLElement | null = null;

  const end = () => {
    if (focused) focused.classList.remove("tour-focus");
    overlay.remove();
    card.remove();
    try {
      localStorage.setItem(SEEN_KEY, "1");
    } catch {
      // private mode
    }
  };

  const show = () => {
    if (focused) focused.classList.remove("tour-focus");
    focused = root.querySelector<HTMLElement>('[data-tour="' + (step + 1) + '"]');
    if (focused) {
      focused.classList.add("tour-focus");
      focused.scrollIntoView({ block: "nearest" });
    }
    const box = focused ? focused.getBoundingClientRect() : { left: 20, bottom: 20 };
    card.style.left = Math.max(8, Math.min(box.left, window.innerWidth - 340)) + "px";
    card.style.top = Math.min(box.bottom + 8, window.innerHeight - 160) + "px";
    card.innerHTML =
      '<div class="card-body"><p class="small text-muted mb-1">Step ' +
      (step + 1) +
      " of " +
      STEPS.length +
      '</p><p class="mb-2"></p><div class="d-flex gap-2 justify-content-end">' +
      '<button type="button" class="btn btn-sm btn-outline-secondary" data-tour-action="close">Close</button>' +
      '<button type="button" class="btn btn-sm btn-primary" data-tour-action="next"></button></div></div>';
    const text = card.querySelector("p.mb-2");
    if (text) text.textContent = STEPS[step];
    const next = card.querySelector<HTMLButtonElement>('[data-tour-action="next"]');
    if (next) {
      next.textContent = step === STEPS.length - 1 ? "Done" : "Next";
      next.focus();
    }
  };

  card.addEventListener("click", (event) => {
    const action =
      event.target instanceof Element ? event.target.getAttribute("data-tour-action") : null;
    if (action === "close") end();
    if (action === "next") {
      step += 1;
      if (step >= STEPS.length) end();
      else show();
    }
  });
  overlay.addEventListener("click", end);
  show();
}

function enhance(root: HTMLElement) {
  const chart = root.querySelector<HTMLElement>("[data-annotate-href]");
  if (chart) annotateOnRightClick(chart);

  const range = root.querySelector<HTMLFormElement>('form[data-role="date-range"]');
  if (range) guardDateRange(range);

  const selectForm = root.querySelector<HTMLFormElement>("form.therapy-select");
  if (selectForm) {
    selectForm.addEventListener("change", (event) => {
      if (event.target instanceof HTMLInputElement && event.target.name === "eventId") {
        submitWith(selectForm, "select");
      }
    });
  }

  const addGraph = root.querySelector<HTMLButtonElement>('[data-role="add-graph"]');
  const addGraphForm = addGraph && addGraph.form;
  if (addGraph && addGraphForm) {
    addGraphForm.addEventListener("submit", (event) => {
      if (addGraph.getAttribute("data-busy")) return;
      event.preventDefault();
      addGraph.setAttribute("data-busy", "1");
      addGraph.textContent = "Adding Graph ....";
      setTimeout(() => submitWith(addGraphForm, "addGraph"), 1500);
    });
  }

  document.querySelectorAll<HTMLFormElement>("form.annotation-form").forEach((form) => {
    const text = form.querySelector<HTMLInputElement | HTMLTextAreaElement>(
      '[data-role="annotation-text"]',
    );
    const add = form.querySelector<HTMLButtonElement>('[data-role="annotation-add"]');
    if (!text || !add) return;
    const update = () => {
      add.disabled = text.value.trim() === "";
    };
    text.addEventListener("input", update);
    update();
  });

  const howTo = root.querySelector('[data-role="how-to-use"]');
  if (howTo) {
    howTo.addEventListener("click", (event) => {
      event.preventDefault();
      startTour(root);
    });
  }
  let seen = false;
  try {
    seen = localStorage.getItem(SEEN_KEY) === "1";
  } catch {
    seen = true;
  }
  if (!seen && !new URLSearchParams(window.location.search).get("dialog")) {
    setTimeout(() => startTour(root), 100);
  }
  // Browser tests wait for this before relying on the extras above.
  root.setAttribute("data-enhanced", "");
}

const root = document.querySelector<HTMLElement>(".therapy-dashboard");
if (root) enhance(root);

export {};
