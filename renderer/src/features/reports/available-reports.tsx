import { Button, Card, Icon, SimpleGrid } from '@chakra-ui/react';
import { REPORT_TYPES, type ReportType } from '@common/projects';
import { Accessibility, BarChart3, Gauge, ShieldCheck, type LucideIcon } from 'lucide-react';
import { REPORT_TYPE_DETAILS } from './report-links';

const ICONS: Record<ReportType, LucideIcon> = {
  security: ShieldCheck,
  performance: Gauge,
  accessibility: Accessibility,
  analytics: BarChart3,
};

/** The Available Reports tab: the four report types, each with Generate Report. */
export function AvailableReports({ onGenerate }: { onGenerate: (type: ReportType) => void }) {
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      {REPORT_TYPES.map((type) => {
        const { title, description } = REPORT_TYPE_DETAILS[type];
        const ReportIcon = ICONS[type];
        return (
          <Card.Root key={type} variant="outline" data-testid={`report-type-${type}`}>
            <Card.Body gap="3">
              <Icon color="brand.fg" boxSize="6">
                <ReportIcon />
              </Icon>
              <Card.Title as="h2">{title}</Card.Title>
              <Card.Description>{description}</Card.Description>
            </Card.Body>
            <Card.Footer>
              <Button colorPalette="brand" onClick={() => onGenerate(type)} aria-label={`Generate Report: ${title}`}>
                Generate Report
              </Button>
            </Card.Footer>
          </Card.Root>
        );
      })}
    </SimpleGrid>
  );
}
