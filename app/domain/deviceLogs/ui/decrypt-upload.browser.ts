// The decrypt dialog's extras (spec 3 §2.8) over its plain multipart form: the file name is
// checked and the file's metadata and estimated time shown before anything is sent; the upload
// goes by XMLHttpRequest so its real progress shows; loading messages change every 1.5 s and a
// notice shows once the estimate has passed. The server answers with a redirect either way; its
// target is the result view (Proceed) or the dialog with the server's message. Served as
// /js/decrypt-upload.js (scripts/build-browser.mjs).

const NAME = /^([CK])([A-Za-z0-9]+)_(\d{2})(\d{2})(\d{4})_(\d{2})(\d{2})(\d{2})_system\.csv$/;
const SECONDS_PER_KB = 0.27;

function realDate(y: number, m: number, d: number) {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The facts the file name and size tell, or null when the name is not a device log's. */
function describe(file: File): [string, string][] | null {
  const m = NAME.exec(file.name);
  if (!m) return null;
  if (!realDate(+m[5], +m[4], +m[3]) || +m[6] > 23 || +m[7] > 59 || +m[8] > 59) return null;
  const kb = file.size / 1024;
  return [
    ["File name", file.name],
    ["Device ID", m[2]],
    ["Device type", m[1] === "C" ? "Cough" : "Clear"],
    ["Date", m[3] + m[4] + m[5]],
    ["Time", m[6] + m[7] + m[8]],
    ["Size", kb.toFixed(2) + " KB"],
    ["Estimated processing time", (kb * SECONDS_PER_KB).toFixed(1) + " s"],
  ];
}

function enhance(form: HTMLFormElement) {
  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  const nameError = form.querySelector<HTMLElement>('[data-role="name-error"]');
  const metadata = form.querySelector<HTMLElement>('[data-role="metadata"]');
  const progress = form.querySelector<HTMLElement>('[data-role="progress"]');
  const bar = progress && progress.querySelector<HTMLElement>(".progress-bar");
  const status = form.querySelector<HTMLElement>('[data-role="status"]');
  const submit = form.querySelector<HTMLButtonElement>('[data-role="submit"]');
  const proceed = form.querySelector<HTMLAnchorElement>('[data-role="proceed"]');
  if (!input || !nameError || !metadata || !progress || !bar || !status || !submit || !proceed) {
    return;
  }
  const maxBytes = Number(form.getAttribute("data-max-bytes"));
  const messages = JSON.parse(form.getAttribute("data-loading-messages") ?? "[]") as string[];
  const slowMessage = form.getAttribute("data-slow-message") ?? "";

  const showError = (text: string) => {
    nameError.textContent = text;
    nameError.classList.toggle("d-none", !text);
  };

  const check = () => {
    metadata.textContent = "";
    metadata.classList.add("d-none");
    showError("");
    const file = input.files && input.files[0];
    if (!file) return false;
    const facts = describe(file);
    if (!facts) {
      showError(form.getAttribute("data-invalid-name") ?? "");
      return false;
    }
    if (file.size > maxBytes) {
      showError(
        "The file is too large. Log files up to " +
          Math.floor(maxBytes / 1048576) +
          " MB are accepted.",
      );
      return false;
    }
    facts.forEach(([term, value]) => {
      const wrap = document.createElement("div");
      wrap.className = "col-sm-6 d-flex gap-2";
      const dt = document.createElement("dt");
      dt.className = "fw-semibold";
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.className = "mb-1";
      dd.textContent = value;
      wrap.appendChild(dt);
      wrap.appendChild(dd);
      metadata.appendChild(wrap);
    });
    metadata.classList.remove("d-none");
    return true;
  };

  const setProgress = (percent: number) => {
    bar.style.width = percent + "%";
    bar.setAttribute("aria-valuenow", String(percent));
    bar.textContent = percent + "%";
  };

  input.addEventListener("change", () => {
    submit.disabled = !check();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = check() && input.files ? input.files[0] : null;
    if (!file) return;
    const estimateMs = (file.size / 1024) * SECONDS_PER_KB * 1000;
    const started = Date.now();
    let index = 0;
    submit.disabled = true;
    input.disabled = true;
    progress.classList.remove("d-none");
    setProgress(0);
    status.textContent = messages[0];
    const ticker = setInterval(() => {
      index = (index + 1) % messages.length;
      status.textContent = Date.now() - started > estimateMs ? slowMessage : messages[index];
    }, 1500);

    const body = new FormData();
    body.append("fileName", file.name);
    body.append("uploaded-csv", file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) setProgress(Math.min(99, Math.floor((e.loaded / e.total) * 100)));
    });
    xhr.addEventListener("load", () => {
      clearInterval(ticker);
      const target = xhr.responseURL || "";
      if (xhr.status >= 400 || !/[?&]log=/.test(target)) {
        window.location.assign(target || window.location.href);
        return;
      }
      setProgress(100);
      status.textContent = "Done.";
      proceed.href = target;
      proceed.classList.remove("d-none");
      proceed.focus();
    });
    xhr.addEventListener("error", () => {
      clearInterval(ticker);
      status.textContent = "Something Went Wrong, Please Try Again!";
      submit.disabled = false;
      input.disabled = false;
      progress.classList.add("d-none");
    });
    xhr.send(body);
  });
  // Browser tests wait for this before choosing a file.
  form.setAttribute("data-enhanced", "");
}

const form = document.querySelector<HTMLFormElement>("form.decrypt-upload");
if (form && typeof XMLHttpRequest !== "undefined" && typeof FormData !== "undefined") {
  enhance(form);
}

export {};
