// Unit tests see the page as it is once rich text has loaded (rich/index.ts
// loads it after the first frame); rich/rich.test.tsx covers the time before.
import { loadRich } from "../rich";

await loadRich();
