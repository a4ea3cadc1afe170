// The page's first frame comes first: a call whose answer the first frame
// does not show (agents, commands, servers, leftovers, the gauge) waits until
// the page has told the backend it drew it (backend.ready), so neither its
// work in the backend nor a re-render for its answer delays the paint.
let drawn!: () => void;

/** Resolves once the page has drawn its first frame. */
export const firstFrame: Promise<void> = new Promise((resolve) => (drawn = resolve));

/** Says that the first frame is drawn; the calls waiting for it go. */
export const frameDrawn = (): void => drawn();

/** Makes call once the first frame is drawn. */
export const afterFirstFrame = <T>(call: () => Promise<T>): Promise<T> => firstFrame.then(call);
