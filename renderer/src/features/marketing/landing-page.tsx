import { Box } from '@chakra-ui/react';
import { useDocumentTitle } from '../../ui/use-document-title';
import { FeatureCarousel } from './landing/feature-carousel';
import { Hero } from './landing/hero';
import { MemberBadge } from './landing/member-badge';
import { PricingSection } from './landing/pricing-section';
import { Testimonials } from './landing/testimonials';
import { ToolLogos } from './landing/tool-logos';

/** / : the hero with the URL test, the tools we scan, what we find, pricing and what users say (the footer and cookie banner are the public layout's). */
export function LandingPage() {
  useDocumentTitle();
  return (
    <Box overflowX="clip">
      <Hero />
      <ToolLogos />
      <FeatureCarousel />
      <PricingSection />
      <Testimonials />
      <MemberBadge />
    </Box>
  );
}
