// The heavy half of ./index, loaded on demand: import it only from there.
export { highlight, languageFor } from "./highlight";
export { renderMarkdown } from "./markdown";
