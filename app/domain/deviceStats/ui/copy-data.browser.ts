// The Copy Data button of /deviceStats' profile dialog: copies the raw JSON to the clipboard.
// Without JavaScript the button stays hidden and the text can be selected in its box. Served as
// /js/copy-data.js (scripts/build-browser.mjs).
document.querySelectorAll<HTMLButtonElement>("[data-copy]").forEach((button) => {
  const source = document.getElementById(button.getAttribute("data-copy") ?? "");
  if (!(source instanceof HTMLTextAreaElement || source instanceof HTMLInputElement)) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    const done = () => {
      button.textContent = "Copied";
    };
    // Old browsers and plain-HTTP pages have no navigator.clipboard.
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(source.value).then(done, () => source.select());
    } else {
      source.select();
      if (document.execCommand("copy")) done();
    }
  });
});

export {};
