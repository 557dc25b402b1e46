import { Button, Card, Field, HStack, Heading, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { MONITOR_FREQUENCIES, type MonitorSchedule, type MonitoringOverview } from '@common/continuous';
import { useState, type FormEvent } from 'react';
import { formatEventTime } from '../../../ui/relative-date';
import { WEEKDAYS, browserTimeZone, hourLabel } from '../continuous-format';
import { useSaveSchedule } from '../hooks/use-save-schedule';
import { texts } from '../texts';
import { PlanLimitNotice } from '../../../ui/plan-limit';
import { usePlanLimits } from '../../../api/use-plan-limits';

type Frequency = MonitorSchedule['frequency'];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * Scheduled re-scans: Off, Daily, Weekly or Monthly (the first of a weekday in each month) at an hour of the browser's
 * time zone; Save sends PUT.
 */
export function ScheduleForm({ overview }: { overview: MonitoringOverview }) {
  const save = useSaveSchedule(overview.project_id);
  const [frequency, setFrequency] = useState<Frequency>(overview.schedule.frequency);
  const [hour, setHour] = useState(overview.schedule.hour);
  const [weekday, setWeekday] = useState(overview.schedule.weekday);
  const timezone = browserTimeZone();
  // A schedule the plan does not include is offered greyed (the saved one stays selectable); the server decides.
  // Until the plan is known the choice waits: offered at once, Daily could be picked on a plan without it and then
  // turn grey under the pointer. If the plan cannot be read, everything is offered and the server's refusal answers.
  const planLimits = usePlanLimits();
  const allowed = planLimits.data?.limits.monitor_frequencies;
  const offered = (value: Frequency) => !allowed || allowed.includes(value) || value === overview.schedule.frequency;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ frequency, hour, weekday, timezone });
  };

  return (
    <Card.Root variant="outline" as="form" onSubmit={submit} aria-label={texts.schedule} data-testid="schedule-form">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h2" size="md">
            {texts.schedule}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            {texts.scheduleHint}
          </Text>
        </Stack>
        <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
          <Field.Root>
            <Field.Label>{texts.frequency}</Field.Label>
            <NativeSelect.Root disabled={planLimits.isPending}>
              <NativeSelect.Field value={frequency} onChange={(e) => setFrequency(e.currentTarget.value as Frequency)}>
                {MONITOR_FREQUENCIES.map((value) => (
                  <option key={value} value={value} disabled={!offered(value)}>
                    {offered(value) ? texts.frequencies[value] : `${texts.frequencies[value]} ${texts.notInPlan}`}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root disabled={frequency === 'off'}>
            <Field.Label>{texts.hour}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={hour} onChange={(e) => setHour(Number(e.currentTarget.value))}>
                {HOURS.map((value) => (
                  <option key={value} value={value}>
                    {hourLabel(value)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {(frequency === 'weekly' || frequency === 'monthly') && (
            <Field.Root>
              <Field.Label>{frequency === 'monthly' ? texts.monthDay : texts.weekday}</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field value={weekday} onChange={(e) => setWeekday(Number(e.currentTarget.value))}>
                  {WEEKDAYS.map((name, value) => (
                    <option key={name} value={value}>
                      {name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          )}
        </SimpleGrid>
        <Text fontSize="sm" color="fg.muted">
          {texts.timezone}: <span data-testid="schedule-timezone">{timezone}</span>
        </Text>
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Text fontSize="sm">
            {texts.nextRun}:{' '}
            <Text as="span" fontWeight="semibold" data-testid="next-run">
              {overview.next_run_at ? formatEventTime(overview.next_run_at) : texts.notScheduled}
            </Text>
          </Text>
          <Button type="submit" colorPalette="brand" loading={save.isPending}>
            {texts.save}
          </Button>
        </HStack>
        <PlanLimitNotice error={save.error} />
      </Card.Body>
    </Card.Root>
  );
}
