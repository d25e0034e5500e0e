// The Copy Data button of /deviceStats' profile dialog: copies the raw JSON to the clipboard.
// Without JavaScript the button stays hidden and the text can be selected in its box.
(function () {
  Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var done = function () {
        button.textContent = "Copied";
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(source.value).then(done, function () {
          source.select();
        });
      } else {
        source.select();
        if (document.execCommand("copy")) done();
      }
    });
  });
})();
