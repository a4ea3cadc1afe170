/** The other requests waiting, each named; with onShow each is a button that shows it instead (this one keeps waiting). */
export function ApprovalOthers({ others, onShow }: { others: readonly { id: string; name: string }[]; onShow?: (approvalId: string) => void }) {
  return (
    <p className="approval-others">
      Also waiting:{" "}
      {others.map((o, i) => (
        <span key={o.id}>
          {i > 0 && ", "}
          {onShow ? (
            <button type="button" className="link-button" onClick={() => onShow(o.id)} aria-label={`Show ${o.name} instead`}>{o.name}</button>
          ) : o.name}
        </span>
      ))}
    </p>
  );
}
