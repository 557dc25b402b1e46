import { Badge, Box, CloseButton, Flex, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { SAMPLE_REPORTS, SAMPLE_REPORT_FOOTER, SAMPLE_SECURE_ROW, type SampleType } from '@common/marketing';
import { Bot, CircleAlert, CircleCheck, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

function Row({ tone, icon, label, children }: { tone: 'critical' | 'moderate' | 'secure'; icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <HStack as="li" gap="3" px="3" py="2.5" borderRadius="md" bg={`severity.${tone}.subtle`} align="start" data-tone={tone}>
      <Icon boxSize="4.5" mt="0.5" color={`severity.${tone}.fg`} aria-hidden="true">
        {icon}
      </Icon>
      <Text flex="1" fontSize="sm" color="fg" lineHeight="short">
        {children}
      </Text>
      <Badge colorPalette={`severity.${tone}`} variant="solid" flexShrink="0">
        {label}
      </Badge>
    </HStack>
  );
}

/** The marketing preview of a report (static sample data, spec section 2): one per demo type, and a default. */
export function SampleReportCard({ type, onClose }: { type: SampleType; onClose: () => void }) {
  const report = SAMPLE_REPORTS[type];
  const { critical, moderate, secure } = report.counts;
  return (
    <Box
      as="section"
      aria-labelledby="sample-report-title"
      data-testid="sample-report"
      data-type={type}
      borderWidth="1px"
      borderRadius="xl"
      bg="bg.panel"
      shadow="lg"
      overflow="hidden"
    >
      <Flex align="center" justify="space-between" gap="3" px="4" py="3" borderBottomWidth="1px" bg="bg.subtle">
        <Stack gap="0" minW="0">
          <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wider" fontWeight="semibold">
            Sample report
          </Text>
          <Text as="h2" id="sample-report-title" fontWeight="semibold" lineHeight="short">
            {report.title}
          </Text>
        </Stack>
        <CloseButton size="sm" aria-label="Close sample report" onClick={onClose} />
      </Flex>
      <Stack gap="4" p="4">
        <HStack gap="2" wrap="wrap" aria-label="Summary">
          <Badge colorPalette="severity.critical" variant="subtle" size="lg" data-testid="count-critical">
            {critical} critical
          </Badge>
          <Badge colorPalette="severity.moderate" variant="subtle" size="lg" data-testid="count-moderate">
            {moderate} moderate
          </Badge>
          <Badge colorPalette="severity.secure" variant="subtle" size="lg" data-testid="count-secure">
            {secure} secure components
          </Badge>
        </HStack>
        <Stack as="ul" gap="2" listStyleType="none">
          {report.critical.map((issue) => (
            <Row key={issue} tone="critical" icon={<CircleAlert />} label="Critical">
              {issue}
            </Row>
          ))}
          {report.moderate.map((issue) => (
            <Row key={issue} tone="moderate" icon={<TriangleAlert />} label="Medium Risk">
              {issue}
            </Row>
          ))}
          <Row tone="secure" icon={<CircleCheck />} label="Passed">
            {SAMPLE_SECURE_ROW}
          </Row>
        </Stack>
      </Stack>
      <Flex justify="space-between" gap="3" wrap="wrap" px="4" py="3" borderTopWidth="1px" fontSize="xs" color="fg.muted">
        <Text>{SAMPLE_REPORT_FOOTER.duration}</Text>
        <HStack gap="1.5">
          <Icon boxSize="3.5" aria-hidden="true">
            <Bot />
          </Icon>
          <Text>{SAMPLE_REPORT_FOOTER.agent}</Text>
        </HStack>
      </Flex>
    </Box>
  );
}
