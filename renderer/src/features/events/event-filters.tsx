import { Button, Field, HStack, Input, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import { EVENT_KINDS } from '@common/projects';
import { X } from 'lucide-react';
import { useProjects } from '../projects';
import { NO_EVENT_FILTERS, eventLabel, filterParams, type EventFilterValues } from './event-rows';

/** Where events come from, as the Source filter names them; the first (no value) is the default view. */
export const SOURCE_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'Site and scenarios' },
  { value: 'site', label: 'Site only' },
  { value: 'scenario', label: 'Scenario runs' },
  { value: 'scan', label: 'Scanner requests' },
  { value: 'all', label: 'All sources' },
];

function FilterSelect({ label, value, onChange, children }: { label: string; value: string; onChange: (value: string) => void; children: React.ReactNode }) {
  return (
    <Field.Root>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} bg="bg">
          {children}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

function DateFilter({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field.Root>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <Input size="sm" type="date" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} bg="bg" />
    </Field.Root>
  );
}

/** The Events filters: type, project, source and a date range (bare dates, UTC), with a way back to the default. */
export function EventFilters({ value, onChange }: { value: EventFilterValues; onChange: (value: EventFilterValues) => void }) {
  const { projects } = useProjects();
  const set = (key: keyof EventFilterValues) => (next: string) => onChange({ ...value, [key]: next });
  return (
    <SimpleGrid columns={{ base: 2, md: 5 }} gap="3" mb="4" alignItems="end" role="group" aria-label="Event filters">
      <FilterSelect label="Event type" value={value.type} onChange={set('type')}>
        <option value="">All types</option>
        {EVENT_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {eventLabel(kind)}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect label="Project" value={value.project} onChange={set('project')}>
        <option value="">All projects</option>
        {projects.map((project) => (
          <option key={project.id} value={project.id}>
            {project.instruction_text?.trim() || project.url}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect label="Source" value={value.source} onChange={set('source')}>
        {SOURCE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </FilterSelect>
      <DateFilter label="From" value={value.from} onChange={set('from')} />
      <HStack gap="2" align="end">
        <DateFilter label="To" value={value.to} onChange={set('to')} />
        {Object.keys(filterParams(value)).length > 0 && (
          <Button size="sm" variant="ghost" aria-label="Clear filters" onClick={() => onChange(NO_EVENT_FILTERS)}>
            <X aria-hidden />
          </Button>
        )}
      </HStack>
    </SimpleGrid>
  );
}
