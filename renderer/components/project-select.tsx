/** A project's id and name, as the project filter lists it. */
export interface ProjectOption {
  id: number;
  name: string;
}

/** The "All projects" / one project filter shared by the list views. */
export function ProjectSelect({
  projects,
  value,
  onChange,
}: {
  projects: readonly ProjectOption[];
  value: number | undefined;
  onChange: (projectId: number | undefined) => void;
}) {
  return (
    <select
      aria-label="Project"
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}
    >
      <option value="">All projects</option>
      {projects.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
}
