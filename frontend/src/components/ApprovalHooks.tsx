import type { ApprovalRequestedPayload } from "../bridge";
import { askingHooks, HookRewriteNote, HookRuns } from "./HookRuns";

/**
 * What the user's hooks said about the waiting call: the hook that asks
 * and its reason first (a hook's ask asks in every mode, auto included),
 * that the call shown is a hook's rewrite, then which hook said what.
 */
export function ApprovalHooks({ request }: { request: ApprovalRequestedPayload }) {
  const hooks = request.hooks ?? [];
  if (!hooks.length && !request.rewrite) return null;
  return (
    <section className="approval-hooks" aria-label="Your hooks">
      {askingHooks(hooks).map((h, i) => (
        <p key={`${h.name}-${i}`} className="approval-hook-ask">
          Hook <code>{h.name}</code> asks you to decide{h.reason ? `: ${h.reason}` : "."}
        </p>
      ))}
      <HookRewriteNote rewrite={request.rewrite} shown="what you see here" />
      <HookRuns hooks={hooks} />
    </section>
  );
}
