// The decrypt dialog's extras (spec 3 §2.8) over its plain multipart form: the file name is
// checked and the file's metadata and estimated time shown before anything is sent; the upload
// goes by XMLHttpRequest so its real progress shows; loading messages change every 1.5 s and a
// notice shows once the estimate has passed. The server answers with a redirect either way; its
// target is the result view (Proceed) or the dialog with the server's message.
(function () {
  var form = document.querySelector("form.decrypt-upload");
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  var input = form.querySelector('input[type="file"]');
  var nameError = form.querySelector('[data-role="name-error"]');
  var metadata = form.querySelector('[data-role="metadata"]');
  var progress = form.querySelector('[data-role="progress"]');
  var bar = progress.querySelector(".progress-bar");
  var status = form.querySelector('[data-role="status"]');
  var submit = form.querySelector('[data-role="submit"]');
  var proceed = form.querySelector('[data-role="proceed"]');
  var maxBytes = Number(form.getAttribute("data-max-bytes"));
  var messages = JSON.parse(form.getAttribute("data-loading-messages"));
  var slowMessage = form.getAttribute("data-slow-message");
  var NAME = /^([CK])([A-Za-z0-9]+)_(\d{2})(\d{2})(\d{4})_(\d{2})(\d{2})(\d{2})_system\.csv$/;
  var SECONDS_PER_KB = 0.27;

  function realDate(y, m, d) {
    var date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }

  function describe(file) {
    var m = NAME.exec(file.name);
    if (!m) return null;
    if (!realDate(+m[5], +m[4], +m[3]) || +m[6] > 23 || +m[7] > 59 || +m[8] > 59) return null;
    var kb = file.size / 1024;
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

  function showError(text) {
    nameError.textContent = text;
    nameError.classList.toggle("d-none", !text);
  }

  function check() {
    metadata.textContent = "";
    metadata.classList.add("d-none");
    showError("");
    var file = input.files && input.files[0];
    if (!file) return false;
    var facts = describe(file);
    if (!facts) {
      showError(form.getAttribute("data-invalid-name"));
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
    facts.forEach(function (fact) {
      var wrap = document.createElement("div");
      wrap.className = "col-sm-6 d-flex gap-2";
      var dt = document.createElement("dt");
      dt.className = "fw-semibold";
      dt.textContent = fact[0];
      var dd = document.createElement("dd");
      dd.className = "mb-1";
      dd.textContent = fact[1];
      wrap.appendChild(dt);
      wrap.appendChild(dd);
      metadata.appendChild(wrap);
    });
    metadata.classList.remove("d-none");
    return true;
  }

  function setProgress(percent) {
    bar.style.width = percent + "%";
    bar.setAttribute("aria-valuenow", String(percent));
    bar.textContent = percent + "%";
  }

  input.addEventListener("change", function () {
    submit.disabled = !check();
  });

  form.addEventListener("submit", function (event) {
    if (!check()) {
      event.preventDefault();
      return;
    }
    event.preventDefault();
    var file = input.files[0];
    var estimateMs = (file.size / 1024) * SECONDS_PER_KB * 1000;
    var started = Date.now();
    var index = 0;
    submit.disabled = true;
    input.disabled = true;
    progress.classList.remove("d-none");
    setProgress(0);
    status.textContent = messages[0];
    var ticker = setInterval(function () {
      index = (index + 1) % messages.length;
      status.textContent = Date.now() - started > estimateMs ? slowMessage : messages[index];
    }, 1500);

    var body = new FormData();
    body.append("fileName", file.name);
    body.append("uploaded-csv", file, file.name);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) setProgress(Math.min(99, Math.floor((e.loaded / e.total) * 100)));
    });
    xhr.addEventListener("load", function () {
      clearInterval(ticker);
      var target = xhr.responseURL || "";
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
    xhr.addEventListener("error", function () {
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
})();
