import type { MergeRequestRef } from '../../server/contract.ts';

/** A pipeline as a ref label needs it: its raw ref and, from the service, the label and MR. */
export interface RefLabelled {
  ref: string;
  /** `!406` for a merge-request pipeline (absent from services older than issue 30). */
  ref_label?: string;
  merge_request?: MergeRequestRef | null;
}

/**
 * A pipeline's ref as every view shows it (issue 30, item 1): the branch, or `!406` with the merge
 * request's title (the raw ref in the tooltip). `linked` makes `!406` a link to the MR in GitLab —
 * only where the label is not itself inside a link or a button.
 */
export function RefLabel({
  pipeline,
  linked = false,
  className = '',
}: {
  pipeline: RefLabelled;
  linked?: boolean;
  className?: string;
}) {
  const mr = pipeline.merge_request;
  const label = pipeline.ref_label ?? pipeline.ref;
  if (!mr)
    return (
      <span className={`ref-chip ${className}`} title={pipeline.ref}>
        {label}
      </span>
    );
  const title = mr.title ? `${pipeline.ref} — ${mr.title}` : pipeline.ref;
  return (
    <span className={`mr-ref ${className}`} title={title} data-testid="mr-ref">
      {linked ? (
        <a className="ref-chip" href={mr.web_url} target="_blank" rel="noreferrer">
          {label}
        </a>
      ) : (
        <span className="ref-chip">{label}</span>
      )}
      {mr.title && <span className="mr-title">{mr.title}</span>}
    </span>
  );
}
