// The "Copy link" button (hidden until this module shows it): the share link to the clipboard.
import { _ } from "./i18n.js";

export function setupCopy(button) {
  var target = document.getElementById(button.getAttribute("data-copy"));
  var status = button.parentNode.querySelector(".copy-status");
  if (!target || !navigator.clipboard) { return; }
  button.hidden = false;
  button.addEventListener("click", function () {
    var text = target.getAttribute("href") || target.textContent;
    navigator.clipboard.writeText(text).then(function () {
      if (status) { status.textContent = _("Link copied."); }
    }, function () {
      if (status) { status.textContent = _("Could not copy; select the link above instead."); }
    });
  });
}
