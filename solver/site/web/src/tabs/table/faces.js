/* A roll as a button: its acorns and squirrels with their icons, its cars below; its visible text is in its
 * accessible name ("3 acorns, 1 squirrel, 1 car"). Used for entering a roll and for changing one. Few elements
 * per button (the icons are CSS images, set once as custom properties): a tap that shows the 21 rolls of five
 * dice styles and lays out about a third of the elements it would with inline SVG. */
import { el } from "../../page/dom.js";
import { t } from "../../page/i18n.js";
import { FACE_SVG } from "../../page/advice.js";

/* The icons as custom properties of the page, set when the first roll button is made (set while the page starts,
 * they would make the browser style the whole page again after its first paint). */
let iconsSet = false;
function setIcons() {
  iconsSet = true;
  FACE_SVG.forEach((svg, f) => {
    const box = document.createElement("div");
    box.innerHTML = svg;
    const image = new XMLSerializer().serializeToString(/** @type {Node} */ (box.firstChild));   // with its namespace, as an image needs
    document.documentElement.style.setProperty(`--face-${f}`, `url("data:image/svg+xml,${encodeURIComponent(image)}")`);
  });
}
/** @param {number[]} roll [acorns, squirrels, cars] */
export function rollButton([a, sq, c]) {
  if (!iconsSet) setIcons();
  return el("button", { type: "button", class: "res", "data-roll": `${a}-${sq}-${c}` },
    el("span", { class: "faces" }, String(a), el("i", { class: "ic f0" }), el("span", { class: "sr", text: ` ${t("acorns", { n: a })}, ` }),
      String(sq), el("i", { class: "ic f1" }), el("span", { class: "sr", text: ` ${t("squirrels", { n: sq })}, ` })),
    el("span", { class: "cars", text: t("{n} cars", { n: c }) }));
}
