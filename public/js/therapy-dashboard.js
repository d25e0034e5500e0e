// The therapy dashboard's extras (spec 3 §2.7); the page works without them.
// - Right-click on a graph point opens the Add Annotation dialog at that point.
// - Ticking a therapy updates the selection at once (the Update selection button stays for
//   keyboards and for browsers without JavaScript).
// - 'Adding Graph ....' shows for 1.5 s on Add Graph to Report.
// - The Add button of an annotation is disabled while the text is blank.
// - The six-step guided tour: starts 100 ms after the first visit (and from How to use).
(function () {
  var root = document.querySelector(".therapy-dashboard");
  if (!root) return;

  var chart = root.querySelector("[data-annotate-href]");
  if (chart) {
    chart.addEventListener("contextmenu", function (event) {
      var point = event.target.closest ? event.target.closest(".graph-point") : null;
      if (!point) return;
      event.preventDefault();
      var y = Math.round(Number(point.getAttribute("data-y")) * 10) / 10;
      window.location.assign(
        chart
          .getAttribute("data-annotate-href")
          .replace("x=X", "x=" + encodeURIComponent(point.getAttribute("data-x")))
          .replace("y=Y", "y=" + encodeURIComponent(String(y))),
      );
    });
  }

  function submitWith(form, intent) {
    var field = document.createElement("input");
    field.type = "hidden";
    field.name = "intent";
    field.value = intent;
    form.appendChild(field);
    form.submit();
  }

  var selectForm = root.querySelector("form.therapy-select");
  if (selectForm) {
    selectForm.addEventListener("change", function (event) {
      if (event.target.name === "eventId") submitWith(selectForm, "select");
    });
  }

  var addGraph = root.querySelector('[data-role="add-graph"]');
  if (addGraph) {
    addGraph.form.addEventListener("submit", function (event) {
      if (addGraph.getAttribute("data-busy")) return;
      event.preventDefault();
      addGraph.setAttribute("data-busy", "1");
      addGraph.textContent = "Adding Graph ....";
      setTimeout(function () {
        submitWith(addGraph.form, "addGraph");
      }, 1500);
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("form.annotation-form"), function (form) {
    var text = form.querySelector('[data-role="annotation-text"]');
    var add = form.querySelector('[data-role="annotation-add"]');
    var update = function () {
      add.disabled = text.value.trim() === "";
    };
    text.addEventListener("input", update);
    update();
  });

  // ---- Guided tour ----
  var STEPS = [
    "The logo takes you back to the start page.",
    "Choose the dates of the therapies to look at.",
    "The therapy list: tick therapies to show only those; open a row for its details.",
    "The graph: one point per cycle. Right-click a point to annotate it.",
    "Add Graph to Report keeps what the graph shows now.",
    "Generate Report lists the kept graphs and downloads the PDF.",
  ];
  var SEEN_KEY = "therapyDashboardTourSeen";

  function startTour() {
    var overlay = document.createElement("div");
    overlay.className = "tour-overlay";
    var card = document.createElement("div");
    card.className = "tour-card card shadow";
    card.setAttribute("role", "dialog");
    card.setAttribute("aria-label", "Guided tour");
    document.body.appendChild(overlay);
    document.body.appendChild(card);
    var step = 0;
    var focused = null;

    function end() {
      if (focused) focused.classList.remove("tour-focus");
      overlay.remove();
      card.remove();
      try {
        localStorage.setItem(SEEN_KEY, "1");
      } catch (e) {
        /* private mode */
      }
    }

    function show() {
      if (focused) focused.classList.remove("tour-focus");
      focused = root.querySelector('[data-tour="' + (step + 1) + '"]');
      if (focused) {
        focused.classList.add("tour-focus");
        focused.scrollIntoView({ block: "nearest" });
      }
      var box = focused ? focused.getBoundingClientRect() : { left: 20, bottom: 20 };
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
      card.querySelector("p.mb-2").textContent = STEPS[step];
      card.querySelector('[data-tour-action="next"]').textContent =
        step === STEPS.length - 1 ? "Done" : "Next";
      card.querySelector('[data-tour-action="next"]').focus();
    }

    card.addEventListener("click", function (event) {
      var action = event.target.getAttribute("data-tour-action");
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

  var howTo = root.querySelector('[data-role="how-to-use"]');
  if (howTo) {
    howTo.addEventListener("click", function (event) {
      event.preventDefault();
      startTour();
    });
  }
  var seen = false;
  try {
    seen = localStorage.getItem(SEEN_KEY) === "1";
  } catch (e) {
    seen = true;
  }
  if (!seen && !new URLSearchParams(window.location.search).get("dialog")) {
    setTimeout(startTour, 100);
  }
  // Browser tests wait for this before relying on the extras above.
  root.setAttribute("data-enhanced", "");
})();
