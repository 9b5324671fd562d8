/**
 * The web UI's entry: the App into the page's `#app`.
 *
 * @module
 */

import { render } from "preact";
import { App } from "./app.js";

const root = document.getElementById("app");
if (root !== null) {
  root.textContent = "";
  render(<App />, root);
}
